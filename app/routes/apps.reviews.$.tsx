import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { appContext } from "../.server/context.server";
import { proxyDeps } from "../.server/storefront/proxy/proxy-deps.server";
import { unauthorized, ProxySignatureError, verifyAppProxy } from "../.server/storefront/proxy/verify-proxy.server";

// Any other path under the app proxy: the signature is checked first (401), then there is nothing
// here (404), so an unsigned caller learns nothing about which paths exist.
async function notFound(request: Request): Promise<Response> {
  try {
    await verifyAppProxy(request, proxyDeps(appContext()).authenticate);
  } catch (e) {
    if (e instanceof ProxySignatureError) return unauthorized();
    throw e;
  }
  return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}

export const loader = ({ request }: LoaderFunctionArgs) => notFound(request);
export const action = ({ request }: ActionFunctionArgs) => notFound(request);
