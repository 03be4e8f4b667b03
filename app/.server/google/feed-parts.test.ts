import { describe, expect, it } from "vitest";
import { indexXml, parsePart, partCount, partUrl } from "./feed-parts";

const policy = { allowHttp: false };

describe("feed parts", () => {
  it("cut the published list into parts of a fixed number of reviews, at least one", () => {
    expect(partCount(0)).toBe(1);
    expect(partCount(400_000)).toBe(1);
    expect(partCount(400_001)).toBe(2);
    expect(partCount(11, 5)).toBe(3);
  });

  it("read `part` as a whole number from 1, absent meaning the first", () => {
    expect(parsePart(null)).toBe(1);
    expect(parsePart("3")).toBe(3);
    for (const bad of ["0", "-1", "1.5", "02", "", "1e3", "two", "9999999"]) expect(parsePart(bad)).toBeNull();
  });

  it("name each part on the shop's domain under the proxy path Shopify signed", () => {
    expect(partUrl("https://harborbirch.com", "/apps/reviews", 1, null, policy)).toBe(
      "https://harborbirch.com/apps/reviews/google-feed.xml",
    );
    expect(partUrl("https://harborbirch.com/", "/a/rv", 2, "pt-BR", policy)).toBe(
      "https://harborbirch.com/a/rv/google-feed.xml?part=2&locale=pt-BR",
    );
    for (const prefix of ["//evil.example/apps", "/apps/../../x", "/other/reviews", "/apps/re views"])
      expect(partUrl("https://harborbirch.com", prefix, 1, null, policy)).toBeNull();
    expect(partUrl("javascript:alert(1)", "/apps/reviews", 1, null, policy)).toBeNull();
    expect(partUrl("http://harborbirch.com", "/apps/reviews", 1, null, policy)).toBeNull();
  });

  it("list the parts as a sitemaps.org index, escaped", () => {
    const xml = indexXml(
      [
        "https://harborbirch.com/apps/reviews/google-feed.xml",
        "https://harborbirch.com/apps/reviews/google-feed.xml?part=2&locale=es",
      ],
      new Date("2026-11-26T10:00:00.250Z"),
    );
    expect(xml).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n' +
        '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
        "<sitemap><loc>https://harborbirch.com/apps/reviews/google-feed.xml</loc><lastmod>2026-11-26T10:00:00Z</lastmod></sitemap>\n" +
        "<sitemap><loc>https://harborbirch.com/apps/reviews/google-feed.xml?part=2&amp;locale=es</loc>" +
        "<lastmod>2026-11-26T10:00:00Z</lastmod></sitemap>\n" +
        "</sitemapindex>\n",
    );
  });
});
