import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { signedProxyRequest } from "../../../../test/helpers/app-proxy";
import { startStack, type Stack } from "../../../../test/helpers/stack";
import { testAppContext } from "../../../../test/helpers/contexts";
import { Redis } from "ioredis";
import { createRateLimiter } from "./rate-limits";
import { createResponseCache } from "./response-cache";
import { reviewsPageResponse } from "./reviews-page.server";
import { proxyDeps } from "../../web/proxy-deps.server";
import { readProxyPath } from "../../theme";

// The read endpoint of the app proxy through its real route module: the library's signature check,
// real Redis (cache, limits), the emulator over HTTP, and the theme's own `reviews-page` snippet.

const SHOP = "proxy-shop.myshopify.com";
type Loader = (a: { request: Request; params: Record<string, string>; context: object }) => Promise<Response>;
let s: Stack;
let loader: Loader;
let catchAll: Loader;
let sku: string;

beforeAll(async () => {
  s = await startStack("proxy", {
    PROXY_CACHE_MS: "60000",
    PROXY_IP_LIMIT_PER_MIN: "40",
    PROXY_SHOP_LIMIT_PER_MIN: "25",
  });
  await s.connect(SHOP);
  sku = s.emu.control.seed({ customer: "acme", products: 3 }).products[0];
  loader = (await import("../../../routes/apps.reviews.products.$sku.reviews")).loader as unknown as Loader;
  catchAll = (await import("../../../routes/apps.reviews.$")).loader as unknown as Loader;
});
afterAll(() => s?.close());
beforeEach(() => s.emu.control.clearFaults());

let ipNo = 0;
/** A request of its own shopper (IP) unless one is given, so limits of one test do not reach the next. */
const get = (
  query: Record<string, string> = {},
  opts: {
    ip?: string;
    customerId?: string;
    pathPrefix?: string;
    timestamp?: number;
    secret?: string;
    path?: string;
  } = {},
) =>
  loader({
    request: signedProxyRequest({
      shop: SHOP,
      path: opts.path ?? `/products/${sku}/reviews`,
      query,
      ip: opts.ip ?? `198.51.100.${++ipNo}`,
      ...opts,
    }),
    params: { sku },
    context: {},
  });
const summaryCalls = (since: number) => s.emu.control.requests(since).filter((r) => r.path.includes("/summary")).length;
const published = (skuOf: string) =>
  [...s.emu.control.state("acme").reviews].filter((r) => r.sku === skuOf && r.status === "published");

describe("app proxy: GET /apps/reviews/products/<sku>/reviews", () => {
  it("GIVEN a signed request for page 2 by date THEN the theme's snippet renders that page of the service's reviews as HTML, cached for the next shopper", async () => {
    const since = s.emu.control.lastRequestSeq();
    const res = await get({ sort: "created,desc", page: "2", pageSize: "3", locale: "pt-BR" });
    const html = await res.text();
    expect(res.status, html).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("public, max-age=60");
    expect(res.headers.get("x-reviews-cache")).toBe("miss");
    const byDate = published(sku).sort((a, b) => (a.created < b.created ? 1 : -1));
    const page2 = byDate.slice(3, 6);
    for (const r of page2) expect(html).toContain(`id="rv-review-${r._id}"`);
    for (const r of [...byDate.slice(0, 3), ...byDate.slice(6)]) expect(html).not.toContain(r._id);

    // Same query in another order, another shopper, logged in: the same answer from Redis.
    const again = await get(
      { locale: "pt-BR", pageSize: "3", page: "2", sort: "created,desc" },
      { customerId: "7001" },
    );
    expect(again.headers.get("x-reviews-cache")).toBe("hit");
    expect(await again.text()).toBe(html);
    expect(summaryCalls(since)).toBe(1);
  });

  it("GIVEN a rating filter THEN only those reviews come back and the list order does not split the cache", async () => {
    const since = s.emu.control.lastRequestSeq();
    const a = await (await get({ rating: "5,4", pageSize: "50" })).text();
    const b = await get({ rating: "4,5", pageSize: "50" });
    expect(b.headers.get("x-reviews-cache")).toBe("hit");
    expect(await b.text()).toBe(a);
    for (const r of published(sku)) expect(a.includes(r._id)).toBe(r.rating >= 4);
    expect(summaryCalls(since)).toBe(1);
  });

  it("GIVEN the same page asked in two languages THEN the service is called once and each shopper reads their own language", async () => {
    const since = s.emu.control.lastRequestSeq();
    const pt = await (await get({ page: "2", pageSize: "3", locale: "pt-BR" })).text();
    const es = await get({ page: "2", pageSize: "3", locale: "es" });
    expect(es.headers.get("x-reviews-cache")).toBe("miss");
    const esHtml = await es.text();
    expect(summaryCalls(since)).toBe(1);
    expect(pt).not.toBe(esHtml);
    const ids = (html: string) => [...html.matchAll(/id="rv-review-(\w+)"/g)].map((m) => m[1]);
    expect(ids(esHtml)).toEqual(ids(pt));
    expect(ids(pt)).toHaveLength(3);
  });

  it("GIVEN a bad or stale signature THEN 401 and nothing is called upstream or cached", async () => {
    const since = s.emu.control.lastRequestSeq();
    expect((await get({ page: "9" }, { secret: "not-the-app-secret" })).status).toBe(401);
    expect((await get({ page: "9" }, { timestamp: Math.floor(Date.now() / 1000) - 120 })).status).toBe(401);
    const unsigned = await loader({
      request: new Request(`https://reviews-app.test/apps/reviews/products/${sku}/reviews?shop=${SHOP}&page=9`),
      params: { sku },
      context: {},
    });
    expect(unsigned.status).toBe(401);
    expect(unsigned.headers.get("cache-control")).toBe("no-store");
    expect(summaryCalls(since)).toBe(0);
    expect((await get({ page: "9" })).headers.get("x-reviews-cache")).toBe("miss");
  });

  it("GIVEN bad query values THEN 400 naming the parameter, and no call upstream", async () => {
    const since = s.emu.control.lastRequestSeq();
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ sort: "price,desc" }, /sort must be <field>,<order>/],
      [{ page: "0" }, /page must be a whole number from 1/],
      [{ pageSize: "500" }, /pageSize must be a whole number from 1 to 50/],
      [{ rating: "6" }, /rating must be ratings from 1 to 5/],
      [{ filterMedia: "gifs" }, /filterMedia must be pictures, videos, any or none/],
      [{ verified: "yes" }, /verified must be true or false/],
      [{ locale: "<script>" }, /locale must be a language tag/],
    ];
    for (const [query, message] of cases) {
      const res = await get(query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(await res.text()).toMatch(message);
    }
    expect(await get({}, { path: "/products/a%20b/reviews" }).then((r) => r.status)).toBe(200);
    const badSku = await loader({
      request: signedProxyRequest({ shop: SHOP, path: "/products/x/reviews" }),
      params: { sku: "a b<" },
      context: {},
    });
    expect(badSku.status).toBe(400);
    expect(summaryCalls(since)).toBe(1);
  });

  it("GIVEN the service down THEN a translated message with a retry button (503, not stored), and the retry works once it is back", async () => {
    s.emu.control.setFaults({ errorRate: 1, errorStatus: 503, paths: "/summary" });
    const res = await get({ page: "3", pageSize: "2", locale: "pt-BR" });
    expect(res.status).toBe(503);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const html = await res.text();
    expect(html).toContain("Não foi possível carregar as avaliações.");
    expect(html).toMatch(/<button type="button"[^>]*data-rv-retry[^>]*>Tentar de novo<\/button>/);
    expect(html).toContain('role="alert"');

    s.emu.control.clearFaults();
    const retry = await get({ page: "3", pageSize: "2", locale: "pt-BR" });
    expect(retry.status).toBe(200);
    expect(retry.headers.get("x-reviews-cache")).toBe("miss");
  });

  it("GIVEN Redis unreachable THEN the shopper still gets the translated message and a retry, not a server error", async () => {
    const dead = new Redis("redis://127.0.0.1:1", {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      lazyConnect: true,
      retryStrategy: () => null,
    });
    dead.on("error", () => undefined);
    try {
      const deps = {
        ...proxyDeps(s.web),
        cache: createResponseCache(dead, 60_000),
        limits: createRateLimiter(dead, s.prefix),
      };
      const res = await reviewsPageResponse(
        signedProxyRequest({ shop: SHOP, path: `/products/${sku}/reviews`, query: { locale: "es" } }),
        sku,
        deps,
      );
      expect([502, 503]).toContain(res.status);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(await res.text()).toContain("data-rv-retry");
    } finally {
      dead.disconnect();
    }
  });

  it("GIVEN a web process just started, its Redis connection still opening THEN the first read is served, not a 502", async () => {
    // A new context is what a booting web process holds: connections opening, nothing ready yet.
    const booting = testAppContext(s.config, s.t.db);
    try {
      expect(booting.queues.redis.status).not.toBe("ready");
      const res = await reviewsPageResponse(
        signedProxyRequest({ shop: SHOP, path: `/products/${sku}/reviews`, query: { locale: "en", page: "9" } }),
        sku,
        proxyDeps(booting),
      );
      expect(res.status).toBe(200);
    } finally {
      await booting.queues.close();
    }
  });

  it("GIVEN a wrong answer from the service THEN 502 with the message in Spanish", async () => {
    s.emu.control.setFaults({ failNext: { count: 1, status: 404 }, paths: "/summary" });
    const res = await get({ page: "4", locale: "es-MX" });
    expect(res.status).toBe(502);
    expect(await res.text()).toContain("No se pudieron cargar las reseñas.");
  });

  it("GIVEN one shopper over the per-IP limit THEN 429 with Retry-After, while another shopper is served", async () => {
    const ip = "192.0.2.99";
    const statuses: number[] = [];
    for (let i = 0; i < 42; i++) statuses.push((await get({ page: "1" }, { ip })).status);
    expect(statuses.slice(0, 40).every((st) => st === 200)).toBe(true);
    const limited = await get({ page: "1" }, { ip });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    expect(await limited.text()).toContain("data-rv-retry");
    expect((await get({ page: "1" })).status).toBe(200);
  });

  it("GIVEN more cache misses than the per-shop limit THEN 429 with Retry-After and no more calls upstream; cached pages still served", async () => {
    const since = s.emu.control.lastRequestSeq();
    // The limit counts per clock minute: a busy machine may cross into the next one mid-way, so
    // misses go on until the first 429, and at most two minutes' worth reached the service.
    let page = 100;
    let status = 200;
    for (; page < 160 && status !== 429; page++) status = (await get({ page: String(page) })).status;
    expect(status).toBe(429);
    const calls = summaryCalls(since);
    expect(calls).toBeLessThanOrEqual(2 * 25);
    expect((await get({ page: String(page) })).status).toBe(429);
    expect(summaryCalls(since)).toBe(calls);
    // A page already in the cache does not count against the shop.
    expect((await get({ page: "100" })).status).toBe(200);
  });

  it("GIVEN requests through a renamed proxy path THEN the shop's proxy path is recorded for the back-sync", async () => {
    const redis = s.web.queues.redis;
    expect(await readProxyPath(redis, s.prefix, SHOP)).toBe("/apps/reviews");
    await get({ page: "1" }, { pathPrefix: "/community/avaliacoes" });
    await expect.poll(() => readProxyPath(redis, s.prefix, SHOP)).toBe("/community/avaliacoes");
  });

  it("GIVEN a method other than GET and POST (a review) THEN 401 unsigned and 405 signed", async () => {
    const action = (await import("../../../routes/apps.reviews.products.$sku.reviews")).action as unknown as Loader;
    const post = (request: Request) =>
      action({ request: new Request(request.url, { method: "PUT", body: "{}" }), params: { sku }, context: {} });
    expect(
      (await post(new Request(`https://reviews-app.test/apps/reviews/products/${sku}/reviews?shop=${SHOP}`))).status,
    ).toBe(401);
    const signed = await post(signedProxyRequest({ shop: SHOP, path: `/products/${sku}/reviews` }));
    expect(signed.status).toBe(405);
    expect(signed.headers.get("allow")).toBe("GET, POST");
  });

  it("GIVEN any other path under the proxy THEN 401 unsigned and 404 signed", async () => {
    const unsigned = await catchAll({
      request: new Request(`https://reviews-app.test/apps/reviews/anything?shop=${SHOP}`),
      params: {},
      context: {},
    });
    expect(unsigned.status).toBe(401);
    const signed = await catchAll({
      request: signedProxyRequest({ shop: SHOP, path: "/anything" }),
      params: {},
      context: {},
    });
    expect(signed.status).toBe(404);
  });
});
