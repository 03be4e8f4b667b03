import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appProxySignature } from "../../app/.server/storefront/proxy/app-proxy-signature";
import { startLocalStorefront, type LocalStorefront } from "./server";

// The local storefront plays Shopify's app proxy: what reaches the app (a capturing server here)
// is what Shopify would forward, and what comes back to the browser is what Shopify would pass.

const SECRET = "local-proxy-secret";
const seen: { method: string; url: URL; headers: IncomingMessage["headers"]; body: string }[] = [];
const app = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    seen.push({
      method: req.method!,
      url: new URL(req.url!, "http://app"),
      headers: req.headers,
      body: Buffer.concat(chunks).toString(),
    });
    res.writeHead(201, { "Content-Type": "text/html", "Set-Cookie": "app_session=1", "X-App": "yes" }).end("<p>ok</p>");
  });
});
let sf: LocalStorefront;

beforeAll(async () => {
  await new Promise<void>((r) => app.listen(0, "127.0.0.1", r));
  sf = await startLocalStorefront({
    storeGraphqlUrl: "http://127.0.0.1:9/graphql",
    storeAccessToken: "unused",
    shop: "demo-shop.myshopify.com",
    apiVersion: "2026-10",
    appUrl: `http://127.0.0.1:${(app.address() as AddressInfo).port}`,
    apiSecret: SECRET,
  });
});
afterAll(async () => {
  await sf.close();
  app.close();
});

describe("local storefront as Shopify's app proxy", () => {
  it("GIVEN a logged-out shopper WHEN a proxy path is requested THEN the app gets it under /apps/reviews, signed, with an empty customer and no cookie", async () => {
    const res = await fetch(`${sf.origin}/apps/reviews/products/42/reviews?page=2&shop=evil.myshopify.com`, {
      headers: { Cookie: "local_storefront_customer=; theme=dark" },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(res.headers.get("x-app")).toBe("yes");
    expect(await res.text()).toBe("<p>ok</p>");
    const got = seen.at(-1)!;
    expect(got.url.pathname).toBe("/apps/reviews/products/42/reviews");
    const q = got.url.searchParams;
    expect(q.getAll("shop")).toEqual(["demo-shop.myshopify.com"]);
    expect(q.get("logged_in_customer_id")).toBe("");
    expect(q.get("path_prefix")).toBe("/apps/reviews");
    expect(Math.abs(Number(q.get("timestamp")) - Date.now() / 1000)).toBeLessThan(5);
    expect(q.get("signature")).toBe(appProxySignature(q, SECRET));
    expect(q.get("page")).toBe("2");
    expect(got.headers.cookie).toBeUndefined();
    expect(got.headers["x-forwarded-for"]).toBe("127.0.0.1");
  });

  it("GIVEN 'log in as' a customer THEN the app gets that customer id, and method and body pass through (also under a locale prefix)", async () => {
    const login = await fetch(`${sf.origin}/account/login-as?customer=7002&return=/pt-BR/collections/all`, {
      redirect: "manual",
    });
    expect(login.status).toBe(303);
    expect(login.headers.get("location")).toBe("/pt-BR/collections/all");
    const cookie = login.headers.get("set-cookie")!.split(";")[0];
    const res = await fetch(`${sf.origin}/pt-BR/apps/reviews/products/42/review`, {
      method: "POST",
      headers: { Cookie: cookie, "Content-Type": "application/json" },
      body: '{"rating":5}',
    });
    expect(res.status).toBe(201);
    const got = seen.at(-1)!;
    expect(got.method).toBe("POST");
    expect(got.body).toBe('{"rating":5}');
    expect(got.headers["content-type"]).toBe("application/json");
    expect(got.url.searchParams.get("logged_in_customer_id")).toBe("7002");
    expect(got.url.searchParams.get("signature")).toBe(appProxySignature(got.url.searchParams, SECRET));
    expect(got.headers.cookie).toBeUndefined();
  });
});
