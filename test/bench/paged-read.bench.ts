import pino from "pino";
import { startSimulatedStore } from "../../sandbox/simulated-store";
import { createAdminGraphql, type AdminGraphql } from "../../app/.server/shopify/admin-graphql";
import { readBulkJsonl, startBulkQuery, waitForBulkOperation } from "../../app/.server/shopify/bulk-operations";
import { bulkProductsQuery } from "../../app/.server/shopify/product-documents";
import { productsPageSize, readProductPages } from "../../app/.server/shopify/paged-reads";
import { ThrottleRegistry } from "../../app/.server/shopify/throttle";
import { progress } from "./measure";
import type { BenchResult } from "./report";

// Scenario "catalog read, bulk vs paged": what reading N products from Shopify costs on each path,
// the bulk operation (start, poll, stream the JSONL) and the paged fallback used when Shopify refuses
// bulk operations (ProductsPage pages sized to the 1,000-point cap, spaced by the cost bucket). Only
// the read differs between the paths (what is sent to the service is the same, proved in
// workers/processors/bulk-refused.test.ts), so the read is what is measured: requests, seconds and
// cost points (the actual cost Shopify reports, summed). The store's bucket is a Plus plan's
// (20,000 points, 1,000 a second) so that the run ends in minutes; the seconds a Standard (100/s)
// or Advanced (200/s) plan would need follow from the points.

const PLUS = { maximumAvailable: 20_000, restoreRate: 1_000 };

function metered(gql: AdminGraphql) {
  let points = 0;
  let requests = 0;
  const client: AdminGraphql = {
    shop: gql.shop,
    async request<T>(document: string, variables?: Record<string, unknown>, opts?: { signal?: AbortSignal }) {
      const res = await gql.request<T>(document, variables, opts);
      requests++;
      points += res.cost?.actualQueryCost ?? 0;
      return res;
    },
    async query<T>(document: string, variables?: Record<string, unknown>, opts?: { signal?: AbortSignal }) {
      return (await client.request<T>(document, variables, opts)).data;
    },
  };
  return { client, figures: () => ({ requests, points }) };
}

export async function runPagedReadBench(opts: { n: number; seed: number }): Promise<BenchResult[]> {
  const store = await startSimulatedStore({ products: opts.n, seed: opts.seed, throttle: PLUS, bulkDurationMs: 1_000 });
  const gqlFor = () =>
    createAdminGraphql({
      shop: store.shop,
      accessToken: store.accessToken,
      apiVersion: store.apiVersion,
      endpoint: store.graphqlEndpoint,
      logger: pino({ level: "silent" }),
      throttle: new ThrottleRegistry(),
    });
  try {
    progress(`catalog read: bulk path, ${opts.n.toLocaleString("en-US")} products`);
    const bulk = metered(gqlFor());
    let t0 = performance.now();
    const id = await startBulkQuery(bulk.client, bulkProductsQuery({}));
    const op = await waitForBulkOperation(bulk.client, id, { intervalMs: 1_000 });
    let bulkProducts = 0;
    for await (const _group of readBulkJsonl(op.url)) bulkProducts++;
    const bulkSeconds = (performance.now() - t0) / 1000;
    const b = bulk.figures();
    // The download of the result file is one more request, outside the Admin API (no cost).
    const bulkRequests = b.requests + 1;

    progress(`catalog read: paged path, ${opts.n.toLocaleString("en-US")} products`);
    const paged = metered(gqlFor());
    const throttledBefore = store.requests.filter((r) => r.throttled).length;
    t0 = performance.now();
    let pagedProducts = 0;
    for await (const _item of readProductPages(paged.client, {})) {
      pagedProducts++;
      if (pagedProducts % 2_000 === 0)
        progress(
          `paged: ${pagedProducts.toLocaleString("en-US")} products, ${Math.round((performance.now() - t0) / 1000)} s`,
        );
    }
    const pagedSeconds = (performance.now() - t0) / 1000;
    const p = paged.figures();
    const throttled = store.requests.filter((r) => r.throttled).length - throttledBefore;
    const round = (v: number) => Math.round(v * 10) / 10;
    return [
      {
        scenario: `catalog read, bulk vs paged (N = ${opts.n.toLocaleString("en-US")})`,
        figures: {
          "products read: bulk": bulkProducts,
          "products read: paged": pagedProducts,
          "Admin API requests: bulk (start, polls) + 1 file download": bulkRequests,
          "Admin API requests: paged": p.requests,
          "products per page (1,000-point cap)": productsPageSize({ collections: true, metafieldKeys: 0 }),
          "cost points: bulk": b.points,
          "cost points: paged": p.points,
          "cost points per product: paged": round(p.points / Math.max(1, pagedProducts)),
          "seconds: bulk (store builds the file in 1 s)": round(bulkSeconds),
          "seconds: paged, Plus bucket (1,000 points/s)": round(pagedSeconds),
          "seconds: paged, Advanced (200 points/s), from the points": round(p.points / 200),
          "seconds: paged, Standard (100 points/s), from the points": round(p.points / 100),
          "THROTTLED answers: paged": throttled,
        },
        targets: {
          "paged path reads every product the bulk path reads": {
            value: pagedProducts,
            limit: bulkProducts,
            ok: pagedProducts === bulkProducts && bulkProducts === opts.n,
          },
          "paged path never throttled (waits for the bucket instead)": {
            value: throttled,
            limit: 0,
            ok: throttled === 0,
          },
        },
      },
    ];
  } finally {
    await store.close();
  }
}
