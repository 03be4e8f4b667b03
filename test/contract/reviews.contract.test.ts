import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReviewsClient, ReviewsPermanentError, type SubmittedReview } from "../../app/.server/reviews";
import { type ContractTarget, EMULATED, clientFor, eventually, openTarget, uid, failure } from "./target";

// One product's review life cycle across both APIs: submission (direct and verified), media
// upload, attributes, moderation, the admin listings, the storefront ratings and summary, and
// helpful marks.

let target: ContractTarget;
let client: ReviewsClient;

let sku: string;
let orderId: string;
let email: string;
let verified: SubmittedReview;
let direct: SubmittedReview;
let rejected: SubmittedReview;

// A 1×1 transparent PNG.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  "base64",
);

beforeAll(async () => {
  target = await openTarget();
  client = clientFor(target.account);
  sku = uid("boot");
  orderId = uid("order");
  email = `${uid("buyer")}@example.com`;
  await client.admin.sendCatalogBatch([
    {
      sku,
      name: "Trail boot",
      categories: ["Footwear"],
      brand: "Acme Outdoor",
      url: "https://shop.example.com/products/trail-boot",
    },
  ]);
  await client.admin.createOrderV2({
    orderId,
    status: "delivered",
    name: "Jane Doe",
    email,
    userId: "user-501",
    items: [{ productId: sku, sku: `${sku}-42`, skuName: "EU 42", sellerInfo: { id: "s-1", name: "Acme Outlet" } }],
  });
  const { verificationTokenId } = await client.storefront.findOrder({ orderId, email });
  verified = await client.storefront.submitReview(sku, {
    verificationTokenId,
    orderId,
    rating: 5,
    text: "Waterproof and comfortable from day one.",
    recommended: true,
    source: "email",
  });
  direct = await client.storefront.submitReview(sku, {
    userId: "user-777",
    email: "other.buyer@example.com",
    rating: 3,
    text: "Runs a little small.",
    source: "web",
  });
  rejected = await client.storefront.submitReview(sku, {
    userId: "user-778",
    email: "third.buyer@example.com",
    rating: 1,
    text: "Not for me.",
  });
});
afterAll(async () => {
  await target?.close();
});

describe("submit a review", () => {
  it("answers the submitted record, status sent, with an update token", () => {
    for (const r of [verified, direct]) {
      expect(r._id).toEqual(expect.any(String));
      expect(r.status).toBe("sent");
      expect(r.updateToken).toEqual(expect.any(String));
      expect(Array.isArray(r.availableAttributes ?? [])).toBe(true);
    }
  });

  it("marks the review verified when submitted with verificationTokenId + orderId", () => {
    expect(verified.verified).toBe(true);
    expect(direct.verified).toBe(false);
  });

  it("the client refuses a submission without an identification pair", async () => {
    const err = await failure(client.storefront.submitReview(sku, { rating: 4, text: "anonymous" }));
    expect((err as ReviewsPermanentError).reason).toBe("invalid_request");
  });
});

describe("photos and video", () => {
  it("presign → PUT to uploadUrl → confirm attaches a photo", async () => {
    const presigned = await client.storefront.presignPictures(sku, verified._id, {
      updateToken: verified.updateToken,
      mimeType: "image/png",
      fileSize: PNG.length,
    });
    expect(presigned.urls.length).toBeGreaterThan(0);
    const [first] = presigned.urls;
    expect(first.fileKey).toEqual(expect.any(String));
    await client.storefront.uploadFile({ uploadUrl: first.uploadUrl, mimeType: "image/png", body: PNG });
    await client.storefront.confirmPictures(sku, verified._id, {
      updateToken: verified.updateToken,
      keys: [first.fileKey],
    });

    const list = await client.admin.listReviews({ sku, hasPicture: true });
    expect(list.results.map((r) => r._id)).toContain(verified._id);
  });

  it("presign → PUT → confirm attaches a video", async () => {
    const video = Buffer.from("\x00\x00\x00\x18ftypmp42contract-test-video");
    const presigned = await client.storefront.presignVideo(sku, verified._id, {
      updateToken: verified.updateToken,
      mimeType: "video/mp4",
      fileSize: video.length,
    });
    expect(presigned.fileKey).toEqual(expect.any(String));
    await client.storefront.uploadFile({ uploadUrl: presigned.uploadUrl, mimeType: "video/mp4", body: video });
    await client.storefront.confirmVideo(sku, verified._id, {
      updateToken: verified.updateToken,
      key: presigned.fileKey,
    });

    const list = await client.admin.listReviews({ sku, hasVideo: true });
    expect(list.results.map((r) => r._id)).toContain(verified._id);
  });

  it("a wrong update token is refused", async () => {
    const err = await failure(
      client.storefront.presignPictures(sku, verified._id, {
        updateToken: "not-the-token",
        mimeType: "image/png",
        fileSize: 10,
      }),
    );
    expect(err).toBeInstanceOf(ReviewsPermanentError);
  });
});

describe("attributes", () => {
  it("accepts a value for each available attribute", async () => {
    const available = verified.availableAttributes ?? [];
    // The emulator's demo data defines attributes for every category.
    if (EMULATED) expect(available.length).toBeGreaterThan(0);
    if (available.length === 0) {
      // Nothing configured for this account: the only thing to check is that the list is well formed.
      expect(available).toEqual([]);
      return;
    }
    const attributes = available.map((a) =>
      a.type === "multiple-choice" ? { _id: a._id, value: 0, response: a.choices?.[0] } : { _id: a._id, value: 4 },
    );
    await client.storefront.sendAttributes(sku, verified._id, { updateToken: verified.updateToken, attributes });
    const [mine] = (await client.admin.listReviews({ sku, rating: 5 })).results;
    expect(mine.attributes?.length).toBe(attributes.length);
  });
});

describe("moderation and the admin listings", () => {
  it("lists the submitted reviews of the product with total", async () => {
    const list = await client.admin.listReviews({ sku });
    expect(list.total).toBeGreaterThanOrEqual(3);
    expect(list.results.map((r) => r._id)).toEqual(expect.arrayContaining([verified._id, direct._id, rejected._id]));
    for (const r of list.results) {
      expect(r.sku).toBe(sku);
      expect(r.rating).toBeGreaterThanOrEqual(1);
      expect(r.rating).toBeLessThanOrEqual(5);
    }
  });

  it("filters by rating and sorts by field,direction", async () => {
    const fives = await client.admin.listReviews({ sku, rating: 5 });
    expect(fives.results.map((r) => r._id)).toEqual([verified._id]);
    const ascending = await client.admin.listReviews({ sku, order: "rating,1" });
    const ratings = ascending.results.map((r) => r.rating);
    expect(ratings).toEqual([...ratings].sort((x, y) => x - y));
  });

  it("includeOrderData adds the order fields", async () => {
    const list = await client.admin.listReviews({ sku, rating: 5, includeOrderData: true });
    expect(list.results[0]).toMatchObject({ orderId, orderEmail: email, variantSku: `${sku}-42` });
  });

  it("POST reviews/all combines the query with categories and sentiment", async () => {
    const footwear = await client.admin.searchReviews({ sku }, { categories: ["Footwear"], sentiment: "positive" });
    expect(footwear.results.map((r) => r._id)).toEqual([verified._id]);
    const none = await client.admin.searchReviews({ sku }, { categories: ["Kitchen"] });
    expect(none.total).toBe(0);
  });

  it("approve publishes, reject keeps the review off the storefront", async () => {
    await client.admin.moderateReview(verified._id, true);
    await client.admin.moderateReview(direct._id, true);
    await client.admin.moderateReview(rejected._id, false);

    const published = await client.admin.listReviews({ sku, status: "published" });
    expect(published.results.map((r) => r._id).sort()).toEqual([verified._id, direct._id].sort());

    const summary = await eventually(
      () => client.storefront.getSummary(sku, { pageSize: 10 }),
      (s) => (s.reviews[0]?.reviewCount ?? 0) >= 2,
    );
    const ids = summary.reviews[0].reviews.map((r) => r._id);
    expect(ids.sort()).toEqual([verified._id, direct._id].sort());
  });

  it("moderating an unknown review is a permanent error (status not documented)", async () => {
    const err = await failure(client.admin.moderateReview(uid("missing-review"), true));
    expect(err).toBeInstanceOf(ReviewsPermanentError);
  });
});

describe("storefront reads (after moderation)", () => {
  it("ratings: aggregates per SKU; a SKU without published reviews has zero counters and no product", async () => {
    await client.admin.moderateReview(verified._id, true);
    await client.admin.moderateReview(direct._id, true);
    const unknown = uid("no-reviews");
    const ratings = await client.storefront.getRatings([sku, unknown]);
    const mine = ratings.find((r) => r.sku === sku)!;
    expect(mine).toMatchObject({ reviewCount: 2, aggregateRating: 4 });
    expect(mine.product?.name).toBe("Trail boot");
    const none = ratings.find((r) => r.sku === unknown);
    if (none) {
      expect(none).toMatchObject({ reviewCount: 0, aggregateRating: 0 });
      expect(none.product ?? undefined).toBeUndefined();
    }
  });

  it("summary: sort segment, page and pageSize", async () => {
    const byRating = await client.storefront.getSummary(sku, {
      sortField: "rating",
      sortOrder: "asc",
      page: 1,
      pageSize: 1,
    });
    const entry = byRating.reviews[0];
    expect(entry._id).toBe(sku);
    expect(entry.reviewCount).toBe(2);
    expect(entry.reviews).toHaveLength(1);
    expect(entry.reviews[0].rating).toBe(3);
    const page2 = await client.storefront.getSummary(sku, {
      sortField: "rating",
      sortOrder: "asc",
      page: 2,
      pageSize: 1,
    });
    expect(page2.reviews[0].reviews.map((r) => r.rating)).toEqual([5]);
  });

  it("summary: filters (rating list, verified, media)", async () => {
    const verifiedOnly = await client.storefront.getSummary(sku, { verified: true, pageSize: 10 });
    expect(verifiedOnly.reviews[0].reviews.map((r) => r._id)).toEqual([verified._id]);
    const threes = await client.storefront.getSummary(sku, { rating: [3], pageSize: 10 });
    expect(threes.reviews[0].reviews.map((r) => r._id)).toEqual([direct._id]);
    const withPictures = await client.storefront.getSummary(sku, { filterMedia: "pictures", pageSize: 10 });
    expect(withPictures.reviews[0].reviews.map((r) => r._id)).toEqual([verified._id]);
  });

  it("like and dislike answer the review with updated counters", async () => {
    const liked = await client.storefront.likeReview(sku, direct._id, {
      userId: uid("voter"),
      email: "voter1@example.com",
    });
    expect(liked._id).toBe(direct._id);
    expect(liked.helpful).toBeGreaterThanOrEqual(1);
    const disliked = await client.storefront.dislikeReview(sku, direct._id, {
      userId: uid("voter"),
      email: "voter2@example.com",
    });
    expect(disliked.unhelpful).toBeGreaterThanOrEqual(1);
    expect(disliked.helpful).toBe(liked.helpful);
  });
});
