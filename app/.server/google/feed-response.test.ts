import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { signedProxyRequest } from "../../../test/helpers/app-proxy";
import { startStack, type Stack } from "../../../test/helpers/stack";
import { catalogPayloadHash } from "../mapping/product.mapper";
import { createProductMirror } from "../catalog/product-mirror.repository";
import { checkProductReviewFeed } from "./feed-check";
import { googleFeedIndexResponse, googleFeedResponse } from "./feed-response.server";
import { readFeedStatus } from "./feed-status";
import { PRODUCTS } from "./feed.testkit";
import { adminForm, adminRequest } from "../../../test/helpers/session-token";
import { madeUpInstall, seedOfflineSession } from "../../../test/helpers/offline-session";
import { googleFeedDeps } from "../web/feed-deps.server";

// The feed through its real route module: the library's app proxy signature check, the shop's row
// and catalog mirror in the test database, validators in Redis, the emulator over HTTP.

const SHOP = "google-feed-shop.myshopify.com";
const DOMAIN = "https://harbor-birch.example";
type Loader = (a: { request: Request; params: Record<string, string>; context: object }) => Promise<Response>;
let s: Stack;
let loader: Loader;
let skus: string[];
const dir = mkdtempSync(join(tmpdir(), "google-feed-route-"));

beforeAll(async () => {
  s = await startStack("google-feed");
  await s.connect(SHOP);
  skus = s.emu.control.seed({ customer: "acme", products: 4 }).products;
  await s.web.shops.setPrimaryDomain(SHOP, DOMAIN);
  const shop = await s.web.shops.get(SHOP);
  // What the catalog sync would have recorded: three of the four products the service holds, the
  // Shopify fixtures' payloads under the service's keys. The fourth is not in the catalog any more.
  const mirrored = [PRODUCTS.tee, PRODUCTS.sensor, PRODUCTS.giftWrap].map((p, i) => {
    const product = { ...p, sku: skus[i]! } as typeof PRODUCTS.tee & { name: string; categories: string[] };
    return { productId: `798213500000${i}`, sku: skus[i]!, hash: catalogPayloadHash(product), product };
  });
  await createProductMirror(s.web.db).recordAccepted(shop.id, mirrored);
  loader = (await import("../../routes/apps.reviews.google-feed[.]xml")).loader as unknown as Loader;
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await s?.close();
});
beforeEach(() => s.emu.control.clearFaults());

let ipNo = 0;
/** Each request from an address of its own: the per-address limit is not what these tests are about. */
const ip = () => `198.51.100.${++ipNo}`;
/**
 * A fetch of the feed. Through the route module by default; `roomy` goes to the same use case with
 * the route's own deps but room for more whole feeds than the hourly limit, so the tests that
 * rebuild the feed are not cut short by it (the limit has a test of its own).
 */
const get = (
  query: Record<string, string> = {},
  headers: Record<string, string> = {},
  opts: { secret?: string; roomy?: boolean } = {},
) => {
  const signed = signedProxyRequest({ shop: SHOP, path: "/google-feed.xml", query, secret: opts.secret, ip: ip() });
  const h = new Headers(signed.headers);
  for (const [k, v] of Object.entries(headers)) h.set(k, v);
  const request = new Request(signed.url, { headers: h });
  if (!opts.roomy) return loader({ request, params: {}, context: {} });
  return googleFeedResponse(request, {
    ...googleFeedDeps(s.web),
    limits: { buildsPerPart: { max: 100, windowMs: 60_000 } },
  });
};

const headRequest = () => {
  const r = signedProxyRequest({ shop: SHOP, path: "/google-feed.xml", ip: ip() });
  return new Request(r.url, { method: "HEAD", headers: r.headers });
};

const feedable = () =>
  s.emu.control
    .state("acme")
    .reviews.filter((r) => r.status === "published" && r.text.trim() && (r.sku === skus[0] || r.sku === skus[1]));

describe("app proxy: GET /apps/reviews/google-feed.xml", () => {
  it("GIVEN a signed fetch THEN it streams the shop's 2.4 feed: valid, on the shop's domain, the catalog's identifiers", async () => {
    const res = await get({ locale: "pt-BR" });
    const xml = await res.text();
    expect(res.status, xml).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    expect(res.headers.get("etag")).toMatch(/^"[\w-]{32}"$/);
    expect(Date.parse(res.headers.get("last-modified") ?? "")).not.toBeNaN();
    expect(checkProductReviewFeed(xml)).toEqual([]);
    const file = join(dir, "feed.xml");
    writeFileSync(file, xml);
    expect(() => execFileSync("xmllint", ["--noout", file], { stdio: "pipe" })).not.toThrow();

    const expected = feedable();
    expect(expected.length).toBeGreaterThan(0);
    expect(xml.match(/<review>/g) ?? []).toHaveLength(expected.length);
    for (const r of expected) expect(xml).toContain(`<review_id>${r._id}</review_id>`);
    // Each review's 2.4 elements from what the service lists: its verified mark, its channel, its order.
    const blocks = new Map(xml.split("<review>").map((b) => [/<review_id>(.*?)<\/review_id>/.exec(b)?.[1], b]));
    for (const r of expected) {
      const block = blocks.get(r._id)!;
      expect(block).toContain(`<is_verified_purchase>${r.verified}</is_verified_purchase>`);
      const method = ["email", "sms", "whatsapp"].includes(r.source)
        ? "post_fulfillment"
        : ["web", "store", "sdk"].includes(r.source)
          ? "unsolicited"
          : null;
      if (method) expect(block).toContain(`<collection_method>${method}</collection_method>`);
      else expect(block).not.toContain("<collection_method>");
      if (r.orderId) expect(block).toContain(`<transaction_id>${r.orderId}</transaction_id>`);
      else expect(block).not.toContain("<transaction_id>");
      expect(block).not.toContain("<is_incentivized_review>");
    }
    expect(expected.some((r) => r.orderId)).toBe(true);
    expect(xml).toContain(`<product_url>${DOMAIN}/products/heavyweight-organic-tee</product_url>`);
    expect(xml).toContain("<gtins><gtin>5012345678900</gtin></gtins>");
    expect(xml).not.toContain(skus[2]!); // gift wrap: no identifier
    expect(xml).not.toContain(skus[3]!); // not in the catalog
    // Nothing of the buyer beyond the name the storefront shows, though the list now carries the order's.
    for (const r of s.emu.control.state("acme").reviews) if (r.email) expect(xml).not.toContain(r.email);
    for (const o of s.emu.control.state("acme").orders) {
      if (o.email) expect(xml).not.toContain(o.email);
      if (o.phone) expect(xml).not.toContain(o.phone);
    }
  });

  it("GIVEN the copy Merchant Center holds THEN 304 by ETag or by date, and 200 again once a review is published", async () => {
    const first = await get({}, {}, { roomy: true });
    await first.text();
    const etag = first.headers.get("etag")!;
    const lastModified = first.headers.get("last-modified")!;

    const byTag = await get({}, { "If-None-Match": etag }, { roomy: true });
    expect(byTag.status).toBe(304);
    expect(byTag.headers.get("etag")).toBe(etag);
    expect(await byTag.text()).toBe("");
    expect((await get({}, { "If-Modified-Since": lastModified }, { roomy: true })).status).toBe(304);
    // If-None-Match decides when both are sent.
    expect(
      (await get({}, { "If-None-Match": '"other"', "If-Modified-Since": lastModified }, { roomy: true })).status,
    ).toBe(200);

    const pending = s.emu.control
      .state("acme")
      .reviews.find((r) => r.status !== "published" && (r.sku === skus[0] || r.sku === skus[1]));
    expect(pending).toBeDefined();
    s.emu.control.publishReview(pending!._id);
    const after = await get({}, { "If-None-Match": etag }, { roomy: true });
    expect(after.status).toBe(200);
    expect(after.headers.get("etag")).not.toBe(etag);
    const xml = await after.text();
    if (pending!.text.trim()) expect(xml).toContain(`<review_id>${pending!._id}</review_id>`);
  });

  it("GIVEN a whole feed written THEN the admin's record says when, how many reviews and which products were left out; a 304 moves only the fetch time", async () => {
    let now = new Date("2026-11-20T08:00:00Z");
    const deps = {
      ...googleFeedDeps(s.web),
      now: () => now,
      limits: { buildsPerPart: { max: 100, windowMs: 60_000 } },
    };
    const fetch = (headers: Record<string, string> = {}) => {
      const r = signedProxyRequest({ shop: SHOP, path: "/google-feed.xml", ip: ip() });
      const h = new Headers(r.headers);
      for (const [k, v] of Object.entries(headers)) h.set(k, v);
      return googleFeedResponse(new Request(r.url, { headers: h }), deps);
    };
    const shop = await s.web.shops.get(SHOP);
    const read = () => readFeedStatus(s.web.queues.redis, s.web.config.REDIS_PREFIX, shop.id);
    const res = await fetch();
    const xml = await res.text();
    expect(res.status).toBe(200);
    const status = await read();
    expect(status).toMatchObject({
      builtAt: now.toISOString(),
      fetchedAt: now.toISOString(),
      parts: 1,
      included: (xml.match(/<review>/g) ?? []).length,
      bytes: Buffer.byteLength(xml),
    });
    // Gift wrap has no identifier, the fourth product is not in the catalog (if they have reviews).
    const reviewed = new Set(
      s.emu.control
        .state("acme")
        .reviews.filter((r) => r.status === "published")
        .map((r) => r.sku),
    );
    const expected = [
      ...(reviewed.has(skus[2]!) ? [{ key: skus[2]!, reasons: ["no_product_identifier"] }] : []),
      ...(reviewed.has(skus[3]!) ? [{ key: skus[3]!, reasons: ["product_not_in_catalog"] }] : []),
    ].sort((a, b) => a.key.localeCompare(b.key));
    expect(expected.length).toBeGreaterThan(0);
    expect(status!.products).toEqual(expected);

    now = new Date("2026-11-21T08:00:00Z");
    const again = await fetch({ "If-None-Match": res.headers.get("etag")! });
    expect(again.status).toBe(304);
    expect(await read()).toMatchObject({ builtAt: "2026-11-20T08:00:00.000Z", fetchedAt: now.toISOString() });
  });

  it("GIVEN the service failing THEN 503 with Retry-After, never a partial feed", async () => {
    s.emu.control.setFaults({ errorRate: 1, errorStatus: 503, paths: "/reviews/all" });
    const res = await get();
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("600");
  });

  it("GIVEN more reviews than a part holds THEN the index names every part and the parts hold the feed once", async () => {
    // The route's own deps with parts of 5 reviews: the splitting of a shop past Google's size limit.
    const deps = { ...googleFeedDeps(s.web), perPart: 5, limits: { buildsPerPart: { max: 100, windowMs: 60_000 } } };
    const signed = (path: string, query: Record<string, string> = {}) =>
      signedProxyRequest({ shop: SHOP, path, query, ip: ip() });
    const whole = await (await get({}, {}, { roomy: true })).text();
    const ids = (xml: string) => [...xml.matchAll(/<review_id>([^<]+)<\/review_id>/g)].map((m) => m[1]!);

    const index = await googleFeedIndexResponse(signed("/google-feed-index.xml", { locale: "es" }), deps);
    const indexText = await index.text();
    expect(index.status, indexText).toBe(200);
    const urls = [...indexText.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!.replaceAll("&amp;", "&"));
    const published = s.emu.control.state("acme").reviews.filter((r) => r.status === "published").length;
    expect(urls).toHaveLength(Math.ceil(published / 5));
    expect(urls[0]).toBe(`${DOMAIN}/apps/reviews/google-feed.xml?locale=es`);
    expect(urls[1]).toBe(`${DOMAIN}/apps/reviews/google-feed.xml?part=2&locale=es`);

    const inParts: string[] = [];
    for (const url of urls) {
      const res = await googleFeedResponse(
        signed("/google-feed.xml", Object.fromEntries(new URL(url).searchParams)),
        deps,
      );
      const xml = await res.text();
      expect(res.status).toBe(200);
      expect(checkProductReviewFeed(xml)).toEqual([]);
      inParts.push(...ids(xml));
    }
    expect(inParts.sort()).toEqual(ids(whole).sort());
    const beyond = await googleFeedResponse(signed("/google-feed.xml", { part: String(urls.length + 1) }), deps);
    expect(beyond.status).toBe(404);
    expect((await googleFeedResponse(signed("/google-feed.xml", { part: "0" }), deps)).status).toBe(404);
  });

  it("GIVEN whole feeds asked again and again THEN 429 with Retry-After past the limit, while 304s still answer", async () => {
    const deps = { ...googleFeedDeps(s.web), limits: { buildsPerPart: { max: 1, windowMs: 3_600_000 } } };
    const fetch = (headers: Record<string, string> = {}) => {
      const r = signedProxyRequest({ shop: SHOP, path: "/google-feed.xml", ip: "203.0.113.90" });
      const h = new Headers(r.headers);
      for (const [k, v] of Object.entries(headers)) h.set(k, v);
      return googleFeedResponse(new Request(r.url, { headers: h }), deps);
    };
    const head = await googleFeedResponse(headRequest(), deps);
    expect(head.status).toBe(200);
    const etag = head.headers.get("etag")!;
    // Earlier tests may have used this hour's one build already: at most one more 200, then 429.
    const statuses: number[] = [];
    for (let i = 0; i < 2 && statuses.at(-1) !== 429; i++) {
      const res = await fetch();
      await res.text();
      statuses.push(res.status);
      if (res.status === 429) expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    expect([[429], [200, 429]]).toContainEqual(statuses);
    expect((await fetch({ "If-None-Match": etag })).status).toBe(304);
  });

  it("GIVEN requests for one shop from many addresses THEN 429 past the shop's limit", async () => {
    const deps = { ...googleFeedDeps(s.web), limits: { perShop: { max: 1, windowMs: 60_000 } } };
    const head = () => googleFeedResponse(headRequest(), deps);
    // Earlier tests of this minute may have used the one request already: at most one more passes.
    const statuses = [(await head()).status];
    if (statuses[0] !== 429) statuses.push((await head()).status);
    expect([[429], [200, 429]]).toContainEqual(statuses);
  });

  it("GIVEN the service failing after the answer started THEN the response breaks off unclosed, never a shorter valid feed", async () => {
    // Request 1 (the validators' read) passes, the next two (the first page and its one retry) fail.
    s.emu.control.setFaults({ errorRate: 2 / 3, errorStatus: 503, paths: "/reviews/all" });
    const res = await get({}, {}, { roomy: true });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let received = "";
    const outcome = await (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return "closed";
        received += decoder.decode(value, { stream: true });
      }
    })().catch(() => "broken off");
    expect(outcome).toBe("broken off");
    expect(received).toContain("<version>2.4</version>");
    expect(received).not.toContain("</feed>");
    const logged = s.web.sink.lines.filter((l) => l.includes("google feed")).join("");
    expect(logged).toContain("google feed: stream broken off");
    // What the feed logs: counts, kinds and statuses; no credential, no review text, no reviewer.
    expect(logged).not.toContain("acme-secret-0123456789");
    for (const r of s.emu.control.state("acme").reviews) {
      if (r.text.length > 12) expect(logged).not.toContain(r.text);
      if (r.email) expect(logged).not.toContain(r.email);
    }
  });

  it('GIVEN the merchant turns on "I offer incentives for reviews" in Settings THEN every review says so, and a fresh ETag; off again THEN none', async () => {
    await seedOfflineSession(s.t.db, madeUpInstall(SHOP, "shpat_feed_settings"), { scope: s.config.SCOPES });
    const settingsRoute = await import("../../routes/app.settings");
    const route = { params: {}, context: {} };
    // The form as the page posts it: every field's value, a checkbox only when ticked.
    const save = async (incentives: boolean) => {
      const form = await settingsRoute.loader({ request: adminRequest(SHOP, "/app/settings"), ...route });
      const fields: Record<string, string> = {};
      for (const [path, value] of Object.entries({
        ...form.values,
        "googleFeed.incentivizedReviews": incentives,
      }))
        if (value !== false) fields[path] = value === true ? "true" : value;
      return settingsRoute.action({ request: adminForm(SHOP, "/app/settings", fields), ...route });
    };
    const before = await get({}, {}, { roomy: true });
    const etag = before.headers.get("etag")!;
    expect(await before.text()).not.toContain("<is_incentivized_review>");
    expect((await s.web.shops.settings(SHOP)).googleFeed.incentivizedReviews).toBe(false);

    expect(await save(true)).toEqual({ ok: true, saved: true, resync: false });
    expect((await s.web.shops.settings(SHOP)).googleFeed.incentivizedReviews).toBe(true);
    const on = await get({}, { "If-None-Match": etag }, { roomy: true });
    const xml = await on.text();
    expect(on.status).toBe(200);
    expect(on.headers.get("etag")).not.toBe(etag);
    expect(checkProductReviewFeed(xml)).toEqual([]);
    const reviews = (xml.match(/<review>/g) ?? []).length;
    expect(reviews).toBeGreaterThan(0);
    expect(xml.match(/<is_incentivized_review>true<\/is_incentivized_review>/g)).toHaveLength(reviews);

    expect(await save(false)).toEqual({ ok: true, saved: true, resync: false });
    const off = await get({}, { "If-None-Match": on.headers.get("etag")! }, { roomy: true });
    expect(off.status).toBe(200);
    expect(off.headers.get("etag")).toBe(etag);
    expect(await off.text()).not.toContain("<is_incentivized_review>");
  });

  it("GIVEN a request without Shopify's signature THEN 401", async () => {
    expect((await get({}, {}, { secret: "not-the-app-secret" })).status).toBe(401);
  });
});
