import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../../../test/helpers/db";
import { createProductMirror } from "../catalog/product-mirror.repository";
import { catalogPayloadHash } from "../mapping/product.mapper";
import type { AdminReview, ReviewsAdminApi } from "../reviews";
import { serviceFeedSource } from "./feed-source";
import { adminReview, PRODUCTS } from "./feed.testkit";

// The feed's source on the real catalog mirror (a test database): a feed reads each product from
// the mirror once, however many pages its reviews are on, and keeps only what an entry uses.

let t: TestDb;
let shopId: string;

beforeAll(async () => {
  t = await createTestDb("sqlite");
  shopId = (await t.db.shop.create({ data: { domain: "feed-source.myshopify.com" } })).id;
  const rows = [PRODUCTS.tee, PRODUCTS.sensor].map((p, i) => {
    const product = p as typeof PRODUCTS.tee & { name: string; categories: string[] };
    return { productId: `70000000${i}`, sku: p.sku, hash: catalogPayloadHash(product), product };
  });
  await createProductMirror(t.db).recordAccepted(shopId, rows);
});
afterAll(async () => {
  await t?.drop();
});

/** The service's listing of `reviews`, `page` at a time, read with `skip` as its contract says. */
function listing(reviews: AdminReview[], page: number): Pick<ReviewsAdminApi, "listReviews"> {
  return {
    listReviews: async (query: { skip?: number }) => {
      const skip = query.skip ?? 0;
      return { results: reviews.slice(skip, skip + page), total: reviews.length };
    },
  } as Pick<ReviewsAdminApi, "listReviews">;
}

describe("the feed's source", () => {
  it("GIVEN reviews of two products and a missing one over many pages THEN each product is read from the mirror once, and only the fields an entry uses are kept", async () => {
    const mirror = createProductMirror(t.db);
    const asked: string[][] = [];
    const counted = {
      accepted: (...args: Parameters<typeof mirror.accepted>) => {
        asked.push([...(args[1]?.keys ?? [])]);
        return mirror.accepted(...args);
      },
    };
    const skus = [PRODUCTS.tee.sku, PRODUCTS.sensor.sku, "not-in-catalog"];
    const reviews = Array.from({ length: 30 }, (_, i) => adminReview({ sku: skus[i % 3] }));
    const source = serviceFeedSource(listing(reviews, 4), counted, shopId);
    const found: string[] = [];
    for await (const page of source.pages()) {
      const products = await source.products([...new Set(page.map((r) => r.sku))]);
      found.push(...page.map((r) => (products.has(r.sku) ? r.sku : "none")));
    }
    expect(found).toEqual(reviews.map((r) => (r.sku === "not-in-catalog" ? "none" : r.sku)));
    expect(asked.flat().sort()).toEqual([...skus].sort());
    const kept = await source.products([PRODUCTS.tee.sku]);
    expect(Object.keys(kept.get(PRODUCTS.tee.sku)!).sort()).toEqual(
      ["brand", "gtin", "internalSku", "mpn", "name", "reference", "sku", "status", "url"].sort(),
    );
    expect(kept.get(PRODUCTS.tee.sku)).toMatchObject({ sku: PRODUCTS.tee.sku, gtin: PRODUCTS.tee.gtin });
    // The first page named all three: one query for the whole feed, the kept product asked again included.
    expect(asked).toHaveLength(1);
  });
});
