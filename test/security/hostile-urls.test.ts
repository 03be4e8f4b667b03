import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../helpers/stack";
import { adminRequest } from "../helpers/session-token";
import { signedProxyRequest } from "../helpers/app-proxy";
import { startHostileFront, type HostileFront, type ReviewMedia } from "../helpers/hostile-media-front";
import { HOSTILE_URLS } from "../fixtures/hostile-urls";
import { metrics } from "../../app/.server/metrics/metrics";
import { reviewsFor } from "../../app/.server/admin/reviews-client";
import { buildShopData } from "../../app/.server/backsync/shop-data-sync";
import { statusOrder } from "../../app/.server/storefront/order-reviews/order-review-status-page";
import { createThemeRenderer } from "../../app/.server/storefront/liquid";
import type { ReviewRow } from "../../app/.server/admin/moderation";
import { buildSnapshot } from "../../app/.server/theme";

// Every place the app renders a URL the reviews service sent, fed every hostile URL of the
// fixture by a service that puts them in each review's photos, video and syndication links (a
// real HTTP front of the emulator): the admin's moderation loader, the app proxy's reviews
// fragment (the theme's own snippet), the snapshot the back-sync writes to the product metafield,
// the shop data metafield's rating page, and the order status items. Each hostile URL is dropped
// and counted by place; the real https photo next to it is kept.

const SHOP = "hostile-urls.myshopify.com";
const PHOTO = "https://cdn.reviews.example/photos/kept.jpg";
const THUMB = "https://cdn.reviews.example/photos/kept-thumb.jpg";
let s: Stack;
let front: HostileFront;
let sku: string;
let media: ReviewMedia;

beforeAll(async () => {
  s = await startStack("hostile-urls", {
    PROXY_CACHE_MS: "0",
    PROXY_IP_LIMIT_PER_MIN: "1000000",
    PROXY_SHOP_LIMIT_PER_MIN: "1000000",
  });
  sku = s.emu.control.seed({ customer: "acme", products: 2 }).products[0]!;
  front = await startHostileFront(s.emu.baseUrl, () => media);
  await s.web.shops.connect({
    domain: SHOP,
    customerKey: "acme",
    clientId: "acme-client",
    clientSecret: "acme-secret-0123456789",
    apiUrl: `${front.origin}/api`,
    authUrl: `${front.origin}/auth`,
  });
  await s.t.db.session.create({
    data: {
      id: `offline_${SHOP}`,
      shop: SHOP,
      state: "",
      isOnline: false,
      scope: s.config.SCOPES,
      accessToken: "shpat_hostile",
    },
  });
}, 60_000);
afterAll(async () => {
  await front?.close();
  await s?.close();
});

/** Each hostile URL where a photo, its thumbnail, the video and the source's logo and link go. */
const hostile = (url: string): ReviewMedia => ({
  pictures: [
    { url, thumb: THUMB },
    { url: PHOTO, thumb: url },
    { url: PHOTO, thumb: THUMB },
  ],
  video: { url, thumb: THUMB },
  source: { logo: url, url },
});

/** Every string inside a value: none may be the hostile URL. */
const strings = (v: unknown): string[] =>
  typeof v === "string" ? [v] : v && typeof v === "object" ? Object.values(v).flatMap(strings) : [];
const dropped = async () =>
  Object.fromEntries((await metrics().unsafeUrls.get()).values.map((v) => [v.labels.place, v.value]));
/** Every href, src and srcset value of a piece of HTML. */
const linksIn = (html: string) =>
  [...html.matchAll(/\b(?:href|src|srcset|action|formaction|poster|data)\s*=\s*"([^"]*)"/gi)].map((m) => m[1]!);

describe("a service that sends hostile URLs", () => {
  it.each(HOSTILE_URLS.map((u) => [JSON.stringify(u).slice(0, 60), u]))(
    "GIVEN %s in every media field THEN the admin's moderation rows keep only the real photo",
    async (_name, url) => {
      media = hostile(url);
      const before = await dropped();
      const { loader } = await import("../../app/routes/app.reviews");
      const data = (await loader({
        request: adminRequest(SHOP, "/app/reviews?status=all"),
        params: {},
        context: {},
      })) as { rows?: ReviewRow[] };
      expect(data.rows?.length).toBeGreaterThan(0);
      for (const row of data.rows!) {
        expect(row.pictures).toEqual([PHOTO, PHOTO]);
        expect(row.video).toBeNull();
      }
      expect(strings(data)).not.toContain(url);
      // Per row: one photo and the video.
      expect((await dropped())["admin.review_media"]).toBe((before["admin.review_media"] ?? 0) + data.rows!.length * 2);
    },
  );

  it.each(HOSTILE_URLS.map((u) => [JSON.stringify(u).slice(0, 60), u]))(
    "GIVEN %s THEN the app proxy's reviews fragment links and shows only the real photo",
    async (_name, url) => {
      media = hostile(url);
      const before = await dropped();
      const { loader } = await import("../../app/routes/apps.reviews.products.$sku.reviews");
      const res = await loader({
        request: signedProxyRequest({ shop: SHOP, path: `/products/${sku}/reviews`, query: { pageSize: "5" } }),
        params: { sku },
        context: {},
      });
      const html = await res.text();
      expect(res.status, html).toBe(200);
      const shown = (html.match(/data-rv-review\b/g) ?? []).length;
      expect(shown).toBeGreaterThan(0);
      expect(linksIn(html).sort()).toEqual(
        Array.from({ length: shown }, () => [PHOTO, THUMB])
          .flat()
          .sort(),
      );
      const after = await dropped();
      // Per review: the first photo, the second photo's thumbnail, the video, the source's logo and link.
      expect((after["storefront.review_media"] ?? 0) - (before["storefront.review_media"] ?? 0)).toBeGreaterThanOrEqual(
        shown * 3,
      );
      expect((after["storefront.source_logo"] ?? 0) - (before["storefront.source_logo"] ?? 0)).toBeGreaterThanOrEqual(
        shown,
      );
      expect(
        (after["storefront.review_source"] ?? 0) - (before["storefront.review_source"] ?? 0),
      ).toBeGreaterThanOrEqual(shown);
    },
  );

  it.each(HOSTILE_URLS.map((u) => [JSON.stringify(u).slice(0, 60), u]))(
    "GIVEN %s THEN the snapshot the back-sync writes to the product carries only the real photo",
    async (_name, url) => {
      media = hostile(url);
      const client = await reviewsFor(s.web, SHOP);
      const snapshot = buildSnapshot(sku, await client.storefront.getSummary(sku), { pageSize: 5 });
      expect(snapshot.reviews.length).toBeGreaterThan(0);
      for (const r of snapshot.reviews) {
        expect(r.pictures).toEqual([{ url: PHOTO, thumb: THUMB }]);
        expect(r.video).toBeNull();
        expect(r.source).toEqual({ name: "Partner Store", logo: null, url: null });
      }
      expect(strings(snapshot)).not.toContain(url);
    },
  );

  it.each(HOSTILE_URLS.map((u) => [JSON.stringify(u).slice(0, 60), u]))(
    "GIVEN %s as the rating page THEN neither the shop data nor an order's Rate link carries it",
    (_name, url) => {
      const shopData = buildShopData({
        proxyPath: "/apps/reviews",
        storeSummary: [],
        topRated: { skus: [] },
        rateUrl: url,
        customer: "acme",
      });
      expect(shopData.rateUrl).toBeNull();
      const order = {
        id: "5923018113099",
        name: "#1042",
        processedAt: "2026-11-20T14:03:00Z",
        cancelled: false,
        fulfilled: true,
        customerId: "7001",
        lines: [{ productId: "9001", title: "Tee", handle: "tee", image: url, quantity: 1 }],
      };
      const status = {
        orderId: "5923018113099",
        verificationTokenId: "tok-1",
        products: [{ sku: "9001", active: true }],
      };
      const item = statusOrder(order as never, status as never, () => `${url}/rate/acme/tok-1/5923018113099`).items[0]!;
      expect(item.image).toBeNull();
      expect(item.rate).toBeNull();
      expect(strings(item)).not.toContain(url);
    },
  );
});

describe("the theme's own check (a snapshot written before the rule, or by another writer)", () => {
  const theme = createThemeRenderer({ extensionDir: "extensions/reviews-theme", assetBaseUrl: "" });
  it.each(HOSTILE_URLS.map((u) => [JSON.stringify(u).slice(0, 60), u]))(
    "GIVEN %s in the metafield as is THEN the review snippet renders no link or source from it",
    async (_name, url) => {
      const review = {
        id: "r1",
        name: "Ana",
        date: "2026-11-20T14:03:00Z",
        rating: 5,
        text: "Good",
        verified: true,
        recommended: null,
        helpful: 0,
        unhelpful: 0,
        pictures: [
          { url, thumb: THUMB },
          { url: PHOTO, thumb: url },
          { url: PHOTO, thumb: THUMB },
        ],
        video: { url, thumb: THUMB },
        reply: null,
        source: { name: "Partner Store", logo: url, url },
        original: null,
      };
      const html = await theme.renderSnippet("reviews-review", { review }, "en");
      expect(linksIn(html)).toEqual([PHOTO, THUMB]);
    },
  );
});
