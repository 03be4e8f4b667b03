import { parseArgs } from "node:util";
import { SHOPIFY_API_VERSION } from "../../app/.server/shopify";
import { startLocalStorefront } from "./server";

// `npm run storefront -- --store-url <graphql endpoint> --store-token <token> --shop <domain>
//   --app-url <app origin> [--port 8789] [--proxy-path /apps/reviews]`; the app secret comes from
// --api-secret or SHOPIFY_API_SECRET (it signs the proxied requests as Shopify would).
const { values } = parseArgs({
  options: {
    port: { type: "string", default: "8789" },
    host: { type: "string", default: "127.0.0.1" },
    "store-url": { type: "string" },
    "store-token": { type: "string" },
    shop: { type: "string", default: "demo-shop.myshopify.com" },
    "app-url": { type: "string", default: "http://127.0.0.1:3000" },
    "api-secret": { type: "string" },
    "proxy-path": { type: "string", default: "/apps/reviews" },
  },
});

const secret = values["api-secret"] ?? process.env.SHOPIFY_API_SECRET;
if (!values["store-url"] || !values["store-token"] || !secret) {
  console.error(
    "usage: npm run storefront -- --store-url <GraphQL endpoint> --store-token <token> --app-url <app origin> [--shop d] [--port p] (app secret: --api-secret or SHOPIFY_API_SECRET)",
  );
  process.exit(2);
}

const storefront = await startLocalStorefront({
  port: Number(values.port),
  host: values.host,
  storeGraphqlUrl: values["store-url"],
  storeAccessToken: values["store-token"],
  shop: values.shop!,
  apiVersion: SHOPIFY_API_VERSION,
  appUrl: values["app-url"]!.replace(/\/+$/, ""),
  apiSecret: secret,
  proxyPath: values["proxy-path"],
});
console.log(`local storefront: ${storefront.origin} (collection: ${storefront.origin}/collections/all)`);
const stop = () => void storefront.close().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
