import { createHmac, randomUUID } from "node:crypto";
import { mintSessionToken } from "../../app/.server/admin/session-token";

// Session tokens as Shopify's App Bridge puts them in `Authorization: Bearer …` (minted by
// app/.server/admin/session-token.ts with the test app's secret).

export function sessionToken(
  shop: string,
  opts: { secret?: string; apiKey?: string; userId?: string; lifetimeSeconds?: number } = {},
): string {
  return mintSessionToken(shop, {
    secret: opts.secret ?? process.env.SHOPIFY_API_SECRET ?? "test-api-secret",
    apiKey: opts.apiKey ?? process.env.SHOPIFY_API_KEY ?? "test-api-key",
    userId: opts.userId,
    lifetimeSeconds: opts.lifetimeSeconds,
  });
}

/** A request of the embedded admin (a fetch from App Bridge, not a document load) for `path`. */
export function adminRequest(
  shop: string,
  path: string,
  opts: { secret?: string; headers?: Record<string, string>; method?: string; body?: BodyInit } = {},
): Request {
  return new Request(`https://reviews-app.test${path}`, {
    method: opts.method ?? "GET",
    body: opts.body,
    headers: {
      authorization: `Bearer ${sessionToken(shop, { secret: opts.secret })}`,
      accept: "application/json",
      ...opts.headers,
    },
  });
}

/** A form post of the embedded admin to a route's action. */
export function adminForm(
  shop: string,
  path: string,
  fields: Record<string, string | string[]>,
  opts: { secret?: string } = {},
): Request {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) for (const one of Array.isArray(v) ? v : [v]) form.append(k, one);
  return adminRequest(shop, path, {
    secret: opts.secret,
    method: "POST",
    body: form,
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
}

/**
 * A customer account or checkout UI extension's session token, as Shopify signs it with the app's
 * secret: `dest` the shop's domain (no scheme), `aud` the client id, `sub` the customer's GID when
 * a buyer is logged in (and the app has protected customer data access).
 */
export function extensionSessionToken(
  shop: string,
  opts: { customerId?: string; secret?: string; apiKey?: string; lifetimeSeconds?: number } = {},
): string {
  const now = Math.floor(Date.now() / 1000);
  const b64 = (v: string) => Buffer.from(v).toString("base64url");
  const header = b64(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const payload = b64(
    JSON.stringify({
      dest: shop,
      aud: opts.apiKey ?? process.env.SHOPIFY_API_KEY ?? "test-api-key",
      ...(opts.customerId ? { sub: `gid://shopify/Customer/${opts.customerId}` } : {}),
      exp: now + (opts.lifetimeSeconds ?? 300),
      nbf: now - 5,
      iat: now - 5,
      jti: randomUUID(),
    }),
  );
  const signature = createHmac("sha256", opts.secret ?? process.env.SHOPIFY_API_SECRET ?? "test-api-secret")
    .update(`${header}.${payload}`)
    .digest("base64url");
  return `${header}.${payload}.${signature}`;
}
