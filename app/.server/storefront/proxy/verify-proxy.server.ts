import type { ProxyIdentity } from "./app-proxy-signature";

// Every route under the app proxy starts here. The library's `authenticate.public.appProxy` checks
// the signature and the timestamp (90 s); it answers a bad one with a bare 400, which we turn into
// the 401 a caller without Shopify's signature deserves. Nothing else runs before this passes: no
// cache, no limit counter, no call upstream.

export type AppProxyAuthenticate = (request: Request) => Promise<unknown>;

export class ProxySignatureError extends Error {
  constructor() {
    super("app proxy request without a valid signature");
    this.name = "ProxySignatureError";
  }
}

export async function verifyAppProxy(request: Request, authenticate: AppProxyAuthenticate): Promise<ProxyIdentity> {
  try {
    await authenticate(request);
  } catch (thrown) {
    if (thrown instanceof Response && thrown.status === 400) throw new ProxySignatureError();
    throw thrown;
  }
  // Trusted from here on: these are among the signed parameters.
  const q = new URL(request.url).searchParams;
  return {
    shop: q.get("shop") ?? "",
    loggedInCustomerId: q.get("logged_in_customer_id") ?? "",
    pathPrefix: q.get("path_prefix") ?? "",
  };
}

export function unauthorized(): Response {
  return new Response("Unauthorized", { status: 401, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}
