import pino from "pino";
import { createAdminGraphql, SHOPIFY_API_VERSION, PRODUCT_RATINGS } from "../../app/.server/shopify";
import { productIdOfGid } from "../../app/.server/backsync";
import { DEMO_ACCOUNT, DEMO_SHOP } from "./demo";

// The demo's ratings act, after the storefront act asked for a back-sync: waits until every demo
// product with published reviews at the service holds its ratings in the simulated store
// (`reviews.rating`, `reviews.rating_count` equal to its published reviews, the filterable decimal and
// the snapshot), read
// back through the store's Admin GraphQL endpoint as a theme would see them, and prints how many
// products got ratings. With `check`, a product left without them fails the demo.

/** Products a ProductRatings page asks for (5 points each: 502 requested). */
export const RATINGS_PAGE = 100;

interface ProductRatingsNode {
  id: string;
  rating: { value: string } | null;
  ratingCount: { value: string } | null;
  ratingValue: { value: string } | null;
  snapshot: { id: string } | null;
}

export async function runRatingsDemo(options: {
  emulatorOrigin: string;
  storeGraphqlUrl: string;
  storeAccessToken: string;
  say: (line: string) => void;
  /** The count of products still waiting (a terminal rewrites it in place); nothing when not given. */
  progress?: (line: string) => void;
  check: boolean;
  timeoutMs?: number;
}): Promise<{ withReviews: number; withRatings: number; missing: string[] }> {
  const state = (await (
    await fetch(`${options.emulatorOrigin}/__emulator/state?customer=${DEMO_ACCOUNT.customer}`)
  ).json()) as {
    reviews: { sku: string; status: string }[];
  };
  const published = new Map<string, number>();
  for (const r of state.reviews) if (r.status === "published") published.set(r.sku, (published.get(r.sku) ?? 0) + 1);

  const gql = createAdminGraphql({
    shop: DEMO_SHOP,
    accessToken: options.storeAccessToken,
    apiVersion: SHOPIFY_API_VERSION,
    endpoint: options.storeGraphqlUrl,
    logger: pino({ level: "silent" }),
  });
  const readRatings = async () => {
    const counts = new Map<string, { count: string | null; rating: boolean; filterable: boolean; snapshot: boolean }>();
    let after: string | null = null;
    for (;;) {
      const page: {
        products: { nodes: ProductRatingsNode[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };
      } = await gql.query(PRODUCT_RATINGS, { first: RATINGS_PAGE, after });
      for (const p of page.products.nodes) {
        counts.set(productIdOfGid(p.id), {
          count: p.ratingCount?.value ?? null,
          rating: !!p.rating,
          filterable: !!p.ratingValue,
          snapshot: !!p.snapshot,
        });
      }
      if (!page.products.pageInfo.hasNextPage) return counts;
      after = page.products.pageInfo.endCursor;
    }
  };

  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  let missing: string[] = [];
  for (;;) {
    const held = await readRatings();
    missing = [...published]
      .filter(([sku, n]) => {
        const h = held.get(sku);
        return !h || h.count !== String(n) || !h.rating || !h.filterable || !h.snapshot;
      })
      .map(([sku]) => sku);
    if (missing.length > 0 && Date.now() <= deadline) {
      options.progress?.(
        `back-sync: ${published.size - missing.length} of ${published.size} products with reviews have their ratings in the store …`,
      );
    }
    if (missing.length === 0 || Date.now() > deadline) {
      const withRatings = [...held.values()].filter((h) => h.count !== null).length;
      options.say(
        `back-sync: ${withRatings} products have ratings in the store (reviews.rating, reviews.rating_count, rating_value, snapshot); ${published.size - missing.length} of the ${published.size} demo products with published reviews match the service`,
      );
      if (missing.length && options.check)
        throw new Error(
          `ratings check: ${missing.length} products with reviews lack their metafields (first: ${missing.slice(0, 3).join(", ")})`,
        );
      if (!missing.length && options.check)
        options.say("ratings check: every demo product with reviews has its metafields in the simulated store");
      return { withReviews: published.size, withRatings, missing };
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}
