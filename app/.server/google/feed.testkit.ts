import { readFileSync } from "node:fs";
import { fromWebhookProduct, mapProduct, webhookProductSchema } from "../mapping/product.mapper";
import type { AdminReview } from "../reviews";
import { defaultSettings } from "../settings/settings";
import type { FeedShop, MirroredProduct } from "./feed-entry";
import type { FeedSource } from "./feed-writer";

// Fixtures for the feed's tests: catalog products made the way the mirror gets them (Shopify's
// product webhooks of test/fixtures/products through the real mapper), and admin reviews shaped as
// the service lists them (Admin API "Review (as returned to the administrator)").

export const SHOP_DOMAIN = "https://shop.example.com";

export const feedShop = (over: Partial<FeedShop> = {}): FeedShop => ({
  primaryDomain: SHOP_DOMAIN,
  anonymousName: "Anonymous",
  urlPolicy: { allowHttp: false },
  incentivizedReviews: false,
  ...over,
});

const fixturesDir = new URL("../../../test/fixtures/products/", import.meta.url);

/** The catalog payload the mirror holds for a Shopify product fixture. */
export function mirrored(fixture: string): MirroredProduct {
  const json: unknown = JSON.parse(readFileSync(new URL(fixture, fixturesDir), "utf8"));
  const input = fromWebhookProduct(webhookProductSchema.parse(json));
  return mapProduct(input, { primaryDomain: SHOP_DOMAIN, settings: defaultSettings.catalog });
}

export const PRODUCTS = {
  /** GTIN, MPN and brand. */
  tee: mirrored("apparel-tee.products-update.json"),
  /** No GTIN or MPN; one merchant SKU for every variant, and a brand. */
  sensor: mirrored("default-title.products-update.json"),
  /** Draft in Shopify: inactive in the catalog. */
  tote: mirrored("draft.products-update.json"),
  /** No code and no brand. */
  giftWrap: mirrored("no-category.products-create.json"),
  /** Accents, emoji and CJK in name and brand. */
  creme: mirrored("entities-unicode.products-update.json"),
  /** GTIN only. */
  pillow: mirrored("empty-type-with-taxonomy.products-create.json"),
};

let serial = 0;

/** A review as `GET /{customer}/reviews/all` lists it. */
export function adminReview(over: Partial<AdminReview> = {}): AdminReview {
  serial++;
  return {
    _id: `66f1c0a2e4b0${String(serial).padStart(12, "0")}`,
    customer: "harbor-birch",
    userId: `shopify-customer-${7000 + serial}`,
    name: "Maria S.",
    sku: PRODUCTS.tee.sku,
    text: "Thick cotton, kept its shape after a dozen washes. Runs a little large.",
    source: "email",
    status: "published",
    rating: 5,
    helpful: 3,
    unhelpful: 0,
    verified: true,
    recommended: true,
    moderationTags: [],
    created: "2026-10-02T14:31:07.512Z",
    pictures: [],
    attributes: [],
    product: { _id: "prod-1", sku: over.sku ?? PRODUCTS.tee.sku },
    __v: 0,
    ...over,
  };
}

/** A source over pages held in memory, counting what was asked of it. */
export function memorySource(pages: readonly (readonly AdminReview[])[], products: readonly MirroredProduct[]) {
  const byKey = new Map(products.map((p) => [p.sku, p]));
  const reads = { pages: 0, productQueries: 0 };
  const source: FeedSource = {
    async *pages() {
      for (const page of pages) {
        reads.pages++;
        yield page;
      }
    },
    async products(keys) {
      reads.productQueries++;
      return new Map(keys.flatMap((k) => (byKey.has(k) ? [[k, byKey.get(k)!] as const] : [])));
    },
  };
  return { source, reads };
}

export async function collect(chunks: AsyncIterable<string>): Promise<string> {
  let out = "";
  for await (const c of chunks) out += c;
  return out;
}
