import { createHmac, randomUUID } from "node:crypto";

// Session tokens as Shopify's App Bridge puts them in `Authorization: Bearer …` for an embedded
// app: an HS256 JWT signed with the app's secret, naming the shop in `dest`. With the new embedded
// auth strategy, `authenticate.admin` accepts it and loads the shop's offline session from storage.
// Shopify mints them; this app mints its own only where no Shopify admin is around: the tests and
// `npm run dev:local` (which signs with its own local secret).

const b64url = (v: string | Buffer) => Buffer.from(v).toString("base64url");

export function mintSessionToken(
  shop: string,
  opts: { secret: string; apiKey: string; userId?: string; lifetimeSeconds?: number },
): string {
  const now = Math.floor(Date.now() / 1000);
  const header = b64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const payload = b64url(
    JSON.stringify({
      iss: `https://${shop}/admin`,
      dest: `https://${shop}`,
      aud: opts.apiKey,
      sub: opts.userId ?? "1",
      exp: now + (opts.lifetimeSeconds ?? 60),
      nbf: now - 5,
      iat: now - 5,
      jti: randomUUID(),
      sid: randomUUID(),
    }),
  );
  const signature = createHmac("sha256", opts.secret).update(`${header}.${payload}`).digest("base64url");
  return `${header}.${payload}.${signature}`;
}

/** The `host` parameter Shopify gives an embedded app: base64 of the shop's admin address. */
export function hostParam(shop: string): string {
  return Buffer.from(`${shop}/admin`).toString("base64url");
}
