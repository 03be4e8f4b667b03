import type { HeadersArgs } from "@remix-run/node";
import { boundary } from "@shopify/shopify-app-remix/server";

// The headers Shopify's library sets on a document (frame ancestors, the auth bounce's headers),
// kept on the server: the library's server entry must never reach the browser bundle, where its
// CommonJS dependencies break the dev server's module graph.
export const shopifyDocumentHeaders = (args: HeadersArgs): Headers => boundary.headers(args);
