import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, issueToken, setup } from "./harness";

let t: Awaited<ReturnType<typeof setup>>;
beforeAll(async () => {
  t = await setup({
    accounts: [
      { customer: "demo-store", clientId: "demo-client", clientSecret: "demo-secret" },
      { customer: "other-store", clientId: "other-client", clientSecret: "other-secret" },
    ],
  });
});
afterAll(() => t.emu.close());

const tokenBody = (over: Record<string, unknown> = {}) => ({
  audience: t.emu.baseUrl,
  grant_type: "client_credentials",
  client_id: "demo-client",
  client_secret: "demo-secret",
  ...over,
});

describe("token endpoint", () => {
  it("issues an opaque Bearer token with expires_in for valid client credentials", async () => {
    const res = await call(`${t.emu.authUrl}/oauth/token`, { body: tokenBody() });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ access_token: expect.any(String), expires_in: 86400, token_type: "Bearer" });
    expect(res.body.access_token.length).toBeGreaterThanOrEqual(32);
  });

  it("accepts the OAuth form encoding too", async () => {
    const form = new URLSearchParams(tokenBody() as Record<string, string>).toString();
    const res = await call(`${t.emu.authUrl}/oauth/token`, {
      body: form,
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(200);
  });

  it("answers 401 to a wrong secret or an unknown client", async () => {
    for (const over of [{ client_secret: "nope" }, { client_id: "ghost" }]) {
      const res = await call(`${t.emu.authUrl}/oauth/token`, { body: tokenBody(over) });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ error: "invalid_client", message: expect.any(String) });
    }
  });

  it("answers 400 to a wrong audience, a wrong grant type, or a body without the fields", async () => {
    const wrongAudience = await call(`${t.emu.authUrl}/oauth/token`, {
      body: tokenBody({ audience: `${t.emu.baseUrl}/` }),
    });
    expect(wrongAudience.status).toBe(400);
    expect(wrongAudience.body.error).toBe("invalid_audience");
    const wrongGrant = await call(`${t.emu.authUrl}/oauth/token`, { body: tokenBody({ grant_type: "password" }) });
    expect(wrongGrant.status).toBe(400);
    expect(wrongGrant.body.error).toBe("unsupported_grant_type");
    const empty = await call(`${t.emu.authUrl}/oauth/token`, { body: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toBe("invalid_request");
    const malformed = await call(`${t.emu.authUrl}/oauth/token`, { body: "{not json" });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toBe("invalid_json");
  });
});

describe("Admin API token checks", () => {
  const batch = { products: [{ sku: "auth-1", name: "A", categories: ["X"] }] };

  it("answers 401 without a token, with an unknown token, or with a non-Bearer scheme", async () => {
    const url = `${t.emu.baseUrl}/demo-store/products/batch`;
    const variants: Record<string, string>[] = [
      {},
      { authorization: "Bearer not-a-token" },
      { authorization: `Basic ${t.token}` },
    ];
    for (const headers of variants) {
      const res = await call(url, { body: batch, headers });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ error: "unauthorized", message: expect.any(String) });
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
    }
  });

  it("answers 403 when the token belongs to another customer", async () => {
    const other = await issueToken(t.emu, { clientId: "other-client", clientSecret: "other-secret" });
    const res = await call(`${t.emu.baseUrl}/demo-store/products/batch`, { body: batch, token: other });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe("forbidden");
    const own = await call(`${t.emu.baseUrl}/other-store/products/batch`, { body: batch, token: other });
    expect(own.status).toBe(200);
  });

  it("answers 401 once the expireTokensNow fault ran, and a new token works again", async () => {
    const token = await issueToken(t.emu);
    await call(`${t.emu.origin}/__emulator/faults`, { body: { expireTokensNow: true } });
    const expired = await call(`${t.emu.baseUrl}/demo-store/reviews/all`, { token });
    expect(expired.status).toBe(401);
    expect(expired.body.message).toMatch(/expired/);
    const fresh = await issueToken(t.emu);
    expect((await call(`${t.emu.baseUrl}/demo-store/reviews/all`, { token: fresh })).status).toBe(200);
    await call(`${t.emu.origin}/__emulator/faults`, { method: "DELETE" });
  });

  it("Client API routes need no token", async () => {
    const res = await call(`${t.emu.baseUrl}/demo-store/ratings?skus=a`);
    expect(res.status).toBe(200);
  });
});

describe("token lifetime", () => {
  it("expires after tokenTtlSeconds (clock moved, no sleeping)", async () => {
    const s = await setup({ tokenTtlSeconds: 1 });
    try {
      const res = await call(`${s.emu.authUrl}/oauth/token`, {
        body: {
          audience: s.emu.baseUrl,
          grant_type: "client_credentials",
          client_id: "demo-client",
          client_secret: "demo-secret",
        },
      });
      expect(res.body.expires_in).toBe(1);
      expect((await s.admin("GET", "/reviews/all")).status).toBe(200);
      s.emu.control.advanceClock(1000);
      const after = await s.admin("GET", "/reviews/all");
      expect(after.status).toBe(401);
      expect(after.body.message).toMatch(/expired/);
    } finally {
      await s.emu.close();
    }
  });
});
