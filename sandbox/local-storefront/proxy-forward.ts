import type { IncomingMessage, ServerResponse } from "node:http";
import { signProxyQuery } from "../../app/.server/storefront";

// Shopify's side of the app proxy: `/{prefix}/{subpath}/<rest>` on the shop's domain goes to
// `<proxy url>/<rest>` with the shopper's query plus shop, logged_in_customer_id (empty when logged
// out), path_prefix, timestamp and signature; method and body pass through; Cookie is stripped from
// the request and Set-Cookie from the answer, as Shopify does; X-Forwarded-For carries the shopper.

const DROP_REQUEST = new Set([
  "cookie",
  "host",
  "connection",
  "content-length",
  "transfer-encoding",
  "keep-alive",
  "upgrade",
  "accept-encoding",
  "x-forwarded-for",
  "x-forwarded-host",
]);
const DROP_RESPONSE = new Set([
  "set-cookie",
  "connection",
  "transfer-encoding",
  "keep-alive",
  "content-encoding",
  "content-length",
]);

export interface ForwardOptions {
  /** `<app url>/apps/reviews`: the [app_proxy] url of shopify.app.toml. */
  proxyUrl: string;
  secret: string;
  shop: string;
  /** Where the storefront serves the proxy, e.g. `/apps/reviews`. */
  pathPrefix: string;
  /** Applied to HTML answers (the local storefront points Shopify CDN images at its own). */
  rewriteHtml?: (html: string) => string;
}

export async function forwardToApp(
  req: IncomingMessage,
  res: ServerResponse,
  rest: string,
  search: URLSearchParams,
  customerId: string,
  opts: ForwardOptions,
): Promise<void> {
  const query = signProxyQuery(
    search,
    { shop: opts.shop, loggedInCustomerId: customerId, pathPrefix: opts.pathPrefix },
    opts.secret,
  );
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (DROP_REQUEST.has(name) || value === undefined) continue;
    headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  headers.set("x-forwarded-for", req.socket.remoteAddress?.replace(/^::ffff:/, "") ?? "127.0.0.1");
  headers.set("x-forwarded-host", req.headers.host ?? "localhost");
  const method = req.method ?? "GET";
  let body: Buffer | undefined;
  if (method !== "GET" && method !== "HEAD") {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    body = Buffer.concat(chunks);
  }
  let answer: Response;
  try {
    answer = await fetch(`${opts.proxyUrl}${rest}?${query}`, {
      method,
      headers,
      body: body ? new Uint8Array(body) : undefined,
      redirect: "manual",
    });
  } catch {
    res.writeHead(502, { "Content-Type": "text/plain; charset=utf-8" }).end("The app did not answer.");
    return;
  }
  const out: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    if (!DROP_RESPONSE.has(name)) out[name] = value;
  });
  let bytes = Buffer.from(await answer.arrayBuffer());
  if (opts.rewriteHtml && /^text\/html\b/.test(answer.headers.get("content-type") ?? ""))
    bytes = Buffer.from(opts.rewriteHtml(bytes.toString("utf8")));
  out["content-length"] = String(bytes.length);
  res.writeHead(answer.status, out).end(method === "HEAD" ? undefined : bytes);
}
