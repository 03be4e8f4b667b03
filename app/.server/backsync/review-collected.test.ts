import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type Emulator } from "../../../sandbox/emulator/server";
import { createReviewsClient, type AdminReview, type ReviewsClient } from "../reviews";
import { REVIEW_COLLECTED, collectedSince, collectedTriggers, readCollectedSince } from "./review-collected";

// The "review collected" read against the emulator over HTTP, 5 reviews a page: reviews of every
// status submitted since the cursor, read newest first down to it, on several pages when a poll
// found many; nothing before the cursor; a flood stops at the bound. And the pure parts: where a
// read starts and the trigger calls, oldest submission first.

describe("review collected: the read by submission date", () => {
  let emu: Emulator;
  let client: ReviewsClient;
  const customer = "collected";
  let i = 0;

  const submit = async () => {
    emu.control.advanceClock(1000);
    const n = i++;
    return (
      await client.storefront.submitReview(`sku-${n % 3}`, {
        userId: `u${n}`,
        email: `u${n}@example.com`,
        rating: 1 + (n % 5),
        text: `Review number ${n}`,
      })
    )._id;
  };
  const newestCreated = async () => (await client.admin.listReviews({ order: "created,-1" })).results[0]!.created!;

  beforeAll(async () => {
    emu = await startEmulator({
      port: 0,
      adminPageSize: 5,
      accounts: [{ customer, clientId: "collected-client", clientSecret: "collected-secret-0123456789" }],
    });
    client = createReviewsClient({
      account: {
        customer,
        clientId: "collected-client",
        clientSecret: "collected-secret-0123456789",
        apiUrl: emu.baseUrl,
        authUrl: emu.authUrl,
        rateUrl: emu.rateUrl,
      },
    });
    await client.admin.sendCatalogBatch(
      Array.from({ length: 3 }, (_, n) => ({ sku: `sku-${n}`, name: `Product ${n}`, categories: ["General"] })),
    );
    // History: 12 reviews, some moderated either way.
    for (let n = 0; n < 12; n++) {
      const id = await submit();
      if (n % 3 === 0) emu.control.publishReview(id);
    }
  });
  afterAll(async () => {
    await emu.close();
  });

  it("GIVEN the cursor at the newest review THEN a quiet poll is one call, and that review is read again (the claim makes it a no-op)", async () => {
    const cursor = await newestCreated();
    const read = await readCollectedSince(client.admin, cursor);
    expect(read).toMatchObject({ pages: 1, cursor, truncated: false });
    expect(read.reviews).toHaveLength(1);
  });

  it("GIVEN 7 reviews submitted since, one published at once THEN all 7, any status, over two pages, and the cursor moves to the newest", async () => {
    const cursor = await newestCreated();
    const since = new Date(Date.parse(cursor) + 1).toISOString();
    const fresh: string[] = [];
    for (let n = 0; n < 7; n++) fresh.push(await submit());
    emu.control.publishReview(fresh[2]!);
    const read = await readCollectedSince(client.admin, since);
    expect(read.reviews.map((r) => r._id).sort()).toEqual([...fresh].sort());
    expect(new Set(read.reviews.map((r) => r.status)).size).toBeGreaterThan(1);
    expect(read.pages).toBe(2);
    expect(read.cursor).toBe(await newestCreated());
    expect(read.truncated).toBe(false);
  });

  it("GIVEN more reviews since than the bound's pages hold THEN the read stops there and says so", async () => {
    const since = new Date(0).toISOString();
    const read = await readCollectedSince(client.admin, since, { maxPages: 2 });
    expect(read).toMatchObject({ pages: 2, truncated: true });
    expect(read.reviews).toHaveLength(10);
    expect(read.cursor).toBe(await newestCreated());
  });
});

describe("review collected: where a read starts and what it sends", () => {
  const connectedAt = new Date("2026-11-20T09:00:00.000Z");
  const turnedOnAt = new Date("2026-11-25T14:30:00.000Z");

  it("GIVEN a workflow just turned on THEN reviews collected before it (or before the connection) are not sent", () => {
    expect(collectedSince({ cursor: null, turnedOnAt, connectedAt })).toBe(turnedOnAt.toISOString());
    expect(collectedSince({ cursor: null, turnedOnAt: new Date("2026-01-01T00:00:00Z"), connectedAt })).toBe(
      connectedAt.toISOString(),
    );
  });

  it("GIVEN a cursor after both THEN the read starts from it; an unreadable cursor counts as none", () => {
    expect(collectedSince({ cursor: "2026-11-26T08:00:00.000Z", turnedOnAt, connectedAt })).toBe(
      "2026-11-26T08:00:00.000Z",
    );
    expect(collectedSince({ cursor: "not a date", turnedOnAt, connectedAt: null })).toBe(turnedOnAt.toISOString());
  });

  it("GIVEN reviews read newest first THEN one trigger each, oldest submission first, with the declared fields", () => {
    // As the Admin API lists them (fields of "Review (as returned to the administrator)").
    const reviews = [
      {
        _id: "674a1f0c2b9e4d0012ab34cd",
        customer: "acme",
        userId: "7412345678901",
        name: "Maria S.",
        sku: "8100000000007",
        text: "Arrived quickly, fits well.",
        source: "email",
        status: "pending",
        rating: 4,
        created: "2026-11-26T10:15:00.000Z",
      },
      {
        _id: "674a1e982b9e4d0012ab34c1",
        customer: "acme",
        userId: "7412345678902",
        name: "João P.",
        sku: "8100000000014",
        text: "",
        source: "site",
        status: "filtered",
        rating: 1,
        created: "2026-11-26T09:02:11.000Z",
      },
    ] as AdminReview[];
    const calls = collectedTriggers(reviews);
    expect(calls.map((c) => [c.handle, c.reviewId])).toEqual([
      [REVIEW_COLLECTED, "674a1e982b9e4d0012ab34c1"],
      [REVIEW_COLLECTED, "674a1f0c2b9e4d0012ab34cd"],
    ]);
    expect(calls[0]!.payload).toEqual({
      product_id: 8100000000014,
      "Review id": "674a1e982b9e4d0012ab34c1",
      Rating: 1,
      "Review text": "",
      "Reviewer name": "João P.",
      "Review status": "filtered",
    });
  });
});
