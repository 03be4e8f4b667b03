import { parseArgs } from "node:util";
import pino from "pino";
import { syndicateReviews, type SyndicationDeps } from "../../app/.server/shopapp/syndicate";
import type { OrderLink } from "../../app/.server/shopapp/product-review.mapper";
import type { AdminReview, ReviewsAdminApi } from "../../app/.server/reviews";
import { createAdminGraphql, type AdminGraphql } from "../../app/.server/shopify/admin-graphql";
import { ThrottleRegistry } from "../../app/.server/shopify/throttle";
import { startSimulatedStore } from "../../sandbox/simulated-store";
import { deletePrefix, testRedis, uniquePrefix } from "../helpers/redis";

// Shop app syndication of N published reviews (10,000 by default) against the simulated store over
// HTTP, as a shop's first pass runs it: the app's Admin API client, Shopify's cost bucket of the
// chosen plan, real Redis for what was written. The reviews service is an in-memory list of
// reviews shaped as its List reviews answers them (with the order fields), and the orders mirror a
// map: the bench measures the Shopify side, which is where the time goes. Of the reviews, 3% have
// no order and 5% a guest order (left out, as the Shop app needs a customer); a fifth carry photos.
//
//   node scripts/node24.mjs npx tsx test/bench/shop-app-syndication.ts [--reviews 10000] [--plan plus]
//
// Prints one JSON line, then a markdown table. The store runs in this process: its CPU is counted.

const PLANS = {
  standard: { restoreRate: 100, maximumAvailable: 2_000 },
  advanced: { restoreRate: 200, maximumAvailable: 4_000 },
  plus: { restoreRate: 1_000, maximumAvailable: 20_000 },
} as const;
type Plan = keyof typeof PLANS;
const PAGE = 250;

const { values } = parseArgs({
  options: {
    reviews: { type: "string", default: "10000" },
    plan: { type: "string", default: "plus" },
    products: { type: "string", default: "200" },
  },
});
const n = Number(values.reviews);
const plan = values.plan as Plan;
if (!Number.isInteger(n) || n < 1 || !(plan in PLANS)) {
  console.error("usage: --reviews N (≥ 1) --plan standard|advanced|plus");
  process.exit(2);
}

function generate(count: number, productIds: string[]) {
  const reviews: AdminReview[] = [];
  const links = new Map<string, OrderLink>();
  const base = Date.parse("2026-06-01T00:00:00Z");
  for (let i = 0; i < count; i++) {
    const orderId = String(5_400_000_000_000 + i);
    const kind = i % 100 < 3 ? "no-order" : i % 100 < 8 ? "guest" : "buyer";
    if (kind !== "no-order")
      links.set(orderId, { orderId, customerId: kind === "guest" ? null : String(7_400_000_000_000 + (i % 4000)) });
    reviews.push({
      _id: (0x6744a1f2c9e77b0000000000n + BigInt(i)).toString(16),
      customer: "bench",
      userId: `u${i}`,
      name: `Shopper ${i % 500}`,
      sku: productIds[i % productIds.length],
      text: `Review ${i}: ${"good fabric, fits well. ".repeat(1 + (i % 4))}`.trim(),
      source: i % 2 ? "email" : "web",
      status: "published",
      rating: 1 + (i % 5),
      verified: kind !== "no-order",
      created: new Date(base + i * 60_000).toISOString(),
      pictures: i % 5 === 0 ? [{ _id: `p${i}`, url: `https://cdn.reviews.example/bench/${i}.jpg` }] : [],
      attributes: [],
      product: { sku: productIds[i % productIds.length] },
      ...(kind !== "no-order" ? { orderId } : { orderId: null }),
    } as AdminReview);
  }
  return { reviews, links };
}

/** The client, counting each answered call and the points Shopify charged. */
function metered(gql: AdminGraphql) {
  const m = { calls: 0, points: 0 };
  const client: AdminGraphql = {
    shop: gql.shop,
    request: gql.request.bind(gql),
    async query(document, variables, opts) {
      const r = await gql.request(document, variables, opts);
      m.calls++;
      m.points += r.cost?.actualQueryCost ?? 0;
      return r.data as never;
    },
  };
  return { client, m };
}

const store = await startSimulatedStore({
  products: Number(values.products),
  seed: 27,
  throttle: PLANS[plan],
  keepHistory: true,
});
const redis = testRedis();
const prefix = uniquePrefix("bench-shopapp");
try {
  const productIds = store.products().map((p) => p.id.replace("gid://shopify/Product/", ""));
  const { reviews, links } = generate(n, productIds);
  const service: Pick<ReviewsAdminApi, "listReviews"> = {
    async listReviews(q = {}) {
      const skip = q.skip ?? 0;
      return { results: reviews.slice(skip, skip + PAGE), total: reviews.length };
    },
  };
  const gql = createAdminGraphql({
    shop: store.shop,
    accessToken: store.accessToken,
    apiVersion: store.apiVersion,
    endpoint: store.graphqlEndpoint,
    logger: pino({ level: "silent" }),
    throttle: new ThrottleRegistry(),
  });
  const { client, m } = metered(gql);
  const deps: SyndicationDeps = {
    gql: client,
    redis,
    prefix,
    shopId: "bench-shop",
    reviews: service,
    orderLinks: async (_shop, ids) => new Map(ids.flatMap((id) => (links.has(id) ? [[id, links.get(id)!]] : []))),
    language: null,
    variantKey: "id",
    log: pino({ level: "silent" }),
  };

  const started = performance.now();
  let result = await syndicateReviews(deps, []);
  const totals = { upserted: result.upserted, leftOut: result.leftOut, refused: result.refused, runs: 1 };
  // A bounded run leaves the rest to the next one, as the back-sync's next poll would.
  while (result.backfill === "partial") {
    result = await syndicateReviews(deps, []);
    totals.upserted += result.upserted;
    totals.leftOut += result.leftOut;
    totals.refused += result.refused;
    totals.runs++;
  }
  const seconds = (performance.now() - started) / 1000;

  // One metaobject per written review: the handle per review id keeps retries from adding any.
  const metaobjects = store.metaobjects("product_review").length;
  const throttled = store.requests.filter((r) => r.throttled).length;
  const line = {
    bench: "shop-app-syndication",
    plan,
    restoreRate: PLANS[plan].restoreRate,
    reviews: n,
    upserted: totals.upserted,
    leftOut: totals.leftOut,
    refused: totals.refused,
    metaobjects,
    runs: totals.runs,
    calls: m.calls,
    throttledAnswers: throttled,
    points: m.points,
    seconds: Math.round(seconds * 10) / 10,
    reviewsPerSecond: Math.round(totals.upserted / seconds),
    // What Shopify's bucket alone allows on each plan for the same points (the floor of the time).
    floorSeconds: Object.fromEntries(
      Object.entries(PLANS).map(([name, p]) => [
        name,
        Math.max(0, Math.round((m.points - p.maximumAvailable) / p.restoreRate)),
      ]),
    ),
  };
  console.log(JSON.stringify(line));
  console.log(
    [
      `| Shop app syndication (${n.toLocaleString("en")} reviews, ${plan} bucket) | value |`,
      "| --- | --- |",
      `| metaobjects written | ${line.upserted.toLocaleString("en")} (${metaobjects.toLocaleString("en")} in the store) |`,
      `| left out (no order or guest order) | ${line.leftOut.toLocaleString("en")} |`,
      `| Admin API calls answered | ${line.calls.toLocaleString("en")} |`,
      `| THROTTLED answers | ${throttled.toLocaleString("en")} |`,
      `| cost points charged | ${line.points.toLocaleString("en")} |`,
      `| time | ${line.seconds} s (${line.reviewsPerSecond} reviews/s) |`,
      `| bucket floor: standard / advanced / plus | ${line.floorSeconds.standard} s / ${line.floorSeconds.advanced} s / ${line.floorSeconds.plus} s |`,
    ].join("\n"),
  );
} finally {
  await store.close();
  redis.disconnect();
  await deletePrefix(prefix);
}
