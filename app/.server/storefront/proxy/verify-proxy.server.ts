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
