import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";
import { z } from "zod";
import { OrderBook, ordersModule, startSimulatedStore } from "../../sandbox/simulated-store";

// The simulated store as a child process of a benchmark: generated products on a free port, and a
// small control endpoint so the benchmark can change a product the way a merchant does before the
// matching webhook is delivered (a re-read of the product must then see the change, as on Shopify),
// and `GET /stats` counts the Admin GraphQL requests it answered (by operation).
// Prints one JSON line (see StoreInfo in children.ts), then runs until SIGTERM.
//   node --import tsx test/bench/store-child.ts --products 100000 --seed 11 --shop bench.myshopify.com

const { values } = parseArgs({
  options: {
    products: { type: "string", default: "1000" },
    seed: { type: "string", default: "1" },
    shop: { type: "string", default: "bench-store.myshopify.com" },
  },
});

// The customers of the order benchmark's book (same seed): what the app's consent reads find.
const book = new OrderBook({ seed: Number(values.seed), productCount: Number(values.products) });
const store = await startSimulatedStore({
  port: 0,
  products: Number(values.products),
  seed: Number(values.seed),
  shop: values.shop,
  bulkDurationMs: 50,
  modules: [ordersModule(book)],
  // Shopify's hour: a benchmark measures the app's work, not token refreshes.
  tokenLifetimeMs: 3_600_000,
});

const updateSchema = z.object({
  id: z.union([z.string(), z.number()]),
  patch: z.object({ title: z.string().optional() }),
});

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

const control = createServer((req, res) => {
  if (req.method === "GET" && req.url === "/stats") {
    // Every Admin GraphQL request the store answered so far (a benchmark diffs two readings).
    const byOperation: Record<string, number> = {};
    // Consent reads by customer GID: how many reads each customer cost.
    const consentReads: Record<string, number> = {};
    for (const r of store.requests) {
      byOperation[r.operationName ?? "(anonymous)"] = (byOperation[r.operationName ?? "(anonymous)"] ?? 0) + 1;
      if (r.operationName === "CustomerConsent")
        consentReads[String(r.variables.id)] = (consentReads[String(r.variables.id)] ?? 0) + 1;
    }
    // THROTTLED answers, and the metafields the metafieldsSet calls carried (the back-sync benchmark).
    const throttled = store.requests.filter((r) => r.throttled).length;
    const metafieldsSent = store.requests
      .filter((r) => r.operationName === "MetafieldsSet" && !r.throttled && r.status === 200)
      .reduce((n, r) => n + (Array.isArray(r.variables.metafields) ? r.variables.metafields.length : 0), 0);
    res.writeHead(200, { "Content-Type": "application/json" }).end(
      JSON.stringify({
        graphqlRequests: store.requests.length,
        byOperation,
        throttled,
        metafieldsSent,
        consentReads,
      }),
    );
    return;
  }
  if (req.method === "POST" && req.url === "/session") {
    // An install's offline session (expiring pair) for a benchmark's database.
    res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(store.installSession()));
    return;
  }
  if (req.method !== "POST" || req.url !== "/update") {
    res.writeHead(404).end();
    return;
  }
  body(req)
    .then((text) => {
      const u = updateSchema.parse(JSON.parse(text));
      store.updateProduct(u.id, u.patch);
      res.writeHead(204).end();
    })
    .catch((e: unknown) => {
      res.writeHead(400, { "Content-Type": "text/plain" }).end(String(e));
    });
});
await new Promise<void>((resolve) => control.listen(0, "127.0.0.1", resolve));
const controlOrigin = `http://127.0.0.1:${(control.address() as AddressInfo).port}`;
const controlUrl = `${controlOrigin}/update`;

process.stdout.write(
  `${JSON.stringify({ shop: store.shop, shopifyOrigin: store.originTemplate, sessionUrl: `${controlOrigin}/session`, primaryDomain: store.primaryDomain, controlUrl })}\n`,
);

const stop = () => {
  // Keep-alive sockets of the app's HTTP client may hold a close open: do not wait long for them.
  setTimeout(() => process.exit(0), 2000).unref();
  control.close();
  void store.close().then(() => process.exit(0));
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
