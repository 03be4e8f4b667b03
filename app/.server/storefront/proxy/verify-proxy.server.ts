import { appProxySigned, isShopDomain, type ProxyIdentity } from "./app-proxy-signature";

// Every route under the app proxy starts here. The check (app-proxy-signature.ts, the library's
// rules: the signature and the timestamp, 90 s) answers a bad one with a bare 400, as the library's
// `authenticate.public.appProxy` did, which we turn into the 401 a caller without Shopify's
// signature deserves. Nothing else runs before this passes: no cache, no limit counter, no call
// upstream.

export type AppProxyAuthenticate = (request: Request) => Promise<unknown>;

/** The app proxy's check with the app's secret; reads nothing (no session, no database). */
export function appProxyCheck(secret: string): AppProxyAuthenticate {
  return async (request) => {
    const url = new URL(request.url);
    if (!appProxySigned(url, secret)) throw new Response(undefined, { status: 400 });
    // As the library: a signed request naming no shop is an error, not a refusal (Shopify always
    // names one; only a holder of the secret could sign one without).
    if (!isShopDomain(url.searchParams.get("shop"))) throw new Error("signed app proxy request names no shop");
  };
}

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
  return plain(401, "Unauthorized");
}

/** Runs `then` for a request that passed the signature check; 401 otherwise. */
export async function whenSigned(
  request: Request,
  authenticate: AppProxyAuthenticate,
  then: (identity: ProxyIdentity) => Response | Promise<Response>,
): Promise<Response> {
  let identity: ProxyIdentity;
  try {
    identity = await verifyAppProxy(request, authenticate);
  } catch (e) {
    if (e instanceof ProxySignatureError) return unauthorized();
    throw e;
  }
  return then(identity);
}

export const plain = (status: number, text: string, headers: Record<string, string> = {}) =>
  new Response(text, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", ...headers },
  });
