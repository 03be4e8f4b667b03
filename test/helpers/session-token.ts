import { createHmac, randomUUID } from "node:crypto";

// Session tokens as Shopify's App Bridge puts them in `Authorization: Bearer …` for an embedded
// app: an HS256 JWT signed with the app's secret, naming the shop in `dest`. With the new embedded
// auth strategy, `authenticate.admin` accepts it and loads the shop's offline session from storage.

const b64url = (v: string | Buffer) => Buffer.from(v).toString("base64url");

export function sessionToken(shop: string, opts: { secret?: string; apiKey?: string; userId?: string } = {}): string {
  const secret = opts.secret ?? process.env.SHOPIFY_API_SECRET ?? "test-api-secret";
  const now = Math.floor(Date.now() / 1000);
  const header = b64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const payload = b64url(
    JSON.stringify({
      iss: `https://${shop}/admin`,
      dest: `https://${shop}`,
      aud: opts.apiKey ?? process.env.SHOPIFY_API_KEY ?? "test-api-key",
      sub: opts.userId ?? "1",
      exp: now + 60,
      nbf: now - 5,
      iat: now - 5,
      jti: randomUUID(),
      sid: randomUUID(),
    }),
  );
  const signature = createHmac("sha256", secret).update(`${header}.${payload}`).digest("base64url");
  return `${header}.${payload}.${signature}`;
}

/** A request of the embedded admin (a fetch from App Bridge, not a document load) for `path`. */
export function adminRequest(shop: string, path: string, opts: { secret?: string; headers?: Record<string, string> } = {}): Request {
  return new Request(`https://reviews-app.test${path}`, {
    headers: { authorization: `Bearer ${sessionToken(shop, { secret: opts.secret })}`, accept: "application/json", ...opts.headers },
  });
}
