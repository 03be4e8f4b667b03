import { parseArgs } from "node:util";
import { startSimulatedStore } from "./server";

// Runs the simulated store on its own, for the offline demo:
//   npx tsx test/simulated-store/main.ts --products 1000 --port 4010 [--webhook-url URL --api-secret S]
const { values } = parseArgs({
  options: {
    port: { type: "string", default: "4010" },
    products: { type: "string", default: "250" },
    seed: { type: "string", default: "1" },
    shop: { type: "string" },
    "webhook-url": { type: "string" },
    "api-secret": { type: "string" },
  },
});

const store = await startSimulatedStore({
  port: Number(values.port),
  products: Number(values.products),
  seed: Number(values.seed),
  shop: values.shop,
  webhookUrl: values["webhook-url"],
  apiSecret: values["api-secret"] ?? process.env.SHOPIFY_API_SECRET,
});
console.log(`simulated store ${store.shop} on ${store.origin}`);
console.log(`  GraphQL endpoint: ${store.graphqlEndpoint}`);
console.log(`  access token:     ${store.accessToken}`);
const stop = () => void store.close().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
