import { isRouteErrorResponse } from "@remix-run/react";

/**
 * The embedded admin's error boundary. Shopify's authentication throws responses whose body is a
 * page of its own (the bounce that fetches a fresh session token, the exit from the iframe): render
 * that body as the page, on the server and again on hydration. Anything else goes up to Remix.
 * Written here rather than imported, as the library ships it only in its server entry.
 */
export function ShopifyResponse({ error }: { error: unknown }) {
  if (isRouteErrorResponse(error)) {
    return <div dangerouslySetInnerHTML={{ __html: typeof error.data === "string" ? error.data : "" }} />;
  }
  throw error;
}
