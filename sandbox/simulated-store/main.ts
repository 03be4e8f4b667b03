import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";
import { OrderBook, ordersModule } from "./orders";
import { runAccountOrders, runOrderStory } from "./order-story";
import { STOREFRONT_CUSTOMERS } from "./storefront-customers";
import { startSimulatedStore } from "./server";
import { deliverWebhook } from "./webhooks";

// Runs the simulated store on its own, for the offline demo:
//   npx tsx sandbox/simulated-store/main.ts --products 1000 --port 4010 [--webhook-url URL --api-secret S]
//     [--app-url URL]
// With --app-url (and the secret), a control endpoint runs the demo's order story:
// `POST {control}/orders/story?count=36` places and moves the orders, sends each change's webhooks
// to {app-url}/webhooks/{topic} (the subscription URIs of shopify.app.toml), answers what it did;
// `POST {control}/orders/account?customer=7001` places a storefront account's orders the same way;
// `POST {control}/session` answers an install's offline session (an expiring pair, 1 h tokens, or
// --token-lifetime-ms).
const { values } = parseArgs({
  options: {
    port: { type: "string", default: "4010" },
    products: { type: "string", default: "250" },
    seed: { type: "string", default: "1" },
    shop: { type: "string" },
    "webhook-url": { type: "string" },
    "app-url": { type: "string" },
    "api-secret": { type: "string" },
    "token-lifetime-ms": { type: "string", default: "3600000" },
  },
});

const seed = Number(values.seed);
const products = Number(values.products);
const apiSecret = values["api-secret"] ?? process.env.SHOPIFY_API_SECRET;
// Orders placed by the story only: the store starts with none.
const book = new OrderBook({ seed, productCount: products });
const store = await startSimulatedStore({
  port: Number(values.port),
  products,
  seed,
  shop: values.shop,
  webhookUrl: values["webhook-url"],
  apiSecret,
  modules: [ordersModule(book)],
  tokenLifetimeMs: Number(values["token-lifetime-ms"]),
});

const appUrl = values["app-url"];
let storyRunning = false;
const control = createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://localhost");
  if (req.method === "POST" && url.pathname === "/session") {
    res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(store.installSession()));
    return;
  }
  if (req.method !== "POST" || !["/orders/story", "/orders/account"].includes(url.pathname) || !appUrl || !apiSecret) {
    res.writeHead(404).end();
    return;
  }
  const customer = STOREFRONT_CUSTOMERS.find((c) => c.id === url.searchParams.get("customer"));
  if (url.pathname === "/orders/account" && !customer) {
    res
      .writeHead(404, { "Content-Type": "text/plain" })
      .end(`no storefront customer ${url.searchParams.get("customer")}`);
    return;
  }
  if (storyRunning) {
    res.writeHead(409, { "Content-Type": "text/plain" }).end("the order story is already running");
    return;
  }
  storyRunning = true;
  const deliver = async (topic: string, payload: Record<string, unknown>) => {
    const r = await deliverWebhook({
      url: `${appUrl}/webhooks/${topic}`,
      topic,
      shop: store.shop,
      apiSecret,
      apiVersion: store.apiVersion,
      payload,
    });
    return r.status;
  };
  const run: Promise<unknown> =
    url.pathname === "/orders/account"
      ? runAccountOrders({ book, customer: customer!, deliver })
      : runOrderStory({ book, count: Number(url.searchParams.get("count") ?? 36), seed, deliver });
  run
    .then((outcome) => res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(outcome)))
    .catch((e: unknown) => res.writeHead(500, { "Content-Type": "text/plain" }).end(String(e)))
    .finally(() => (storyRunning = false));
});
await new Promise<void>((resolve) => control.listen(0, "127.0.0.1", resolve));

console.log(`simulated store ${store.shop} on ${store.origin}`);
console.log(`  GraphQL endpoint: ${store.graphqlEndpoint}`);
console.log(`  access token:     ${store.accessToken}`);
console.log(`  control:          http://127.0.0.1:${(control.address() as AddressInfo).port}`);
const stop = () => {
  control.close();
  void store.close().then(() => process.exit(0));
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
