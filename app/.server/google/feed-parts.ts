import { checkUrl, type UrlPolicy } from "../security";
import { element } from "./xml-text";

// A shop too large for one file gets its feed in parts, each a complete 2.4 feed of its own, and an
// index naming them. Google's review feeds have no index format and a Merchant Center feed is one
// URL, so each part is registered as a feed; the index (the sitemaps.org index format, the one
// index format crawlers share) is for the merchant and the admin to know which parts exist.
//
// Parts are cut by position in the published list, oldest first: part n holds the reviews at
// positions (n-1)*FEED_PART_REVIEWS up to the next part's start. A new review lands at the end, so
// earlier parts keep their reviews; a review unpublished before a boundary moves one review across
// it until the next fetch.

/**
 * Reviews per part. Google recommends files of at most 500 MB ("Feed File Guidelines"); a review
 * takes about 0.9 KB in the feed, so 400,000 reviews leave room for long ones. The writer's byte cap
 * still guards each part.
 */
export const FEED_PART_REVIEWS = 400_000;
/** Where the parts are listed, beside the feed under the app proxy. */
export const FEED_FILE = "google-feed.xml";
export const FEED_INDEX_FILE = "google-feed-index.xml";

export const partCount = (publishedTotal: number, perPart = FEED_PART_REVIEWS): number =>
  Math.max(1, Math.ceil(publishedTotal / perPart));

/** The `part` query parameter: 1 when absent, null when it is not a whole number from 1. */
export function parsePart(raw: string | null): number | null {
  if (raw === null) return 1;
  return /^[1-9]\d{0,5}$/.test(raw) ? Number(raw) : null;
}

const PROXY_PATH = /^\/(apps|a|community|tools)\/[A-Za-z0-9_-]{1,30}$/;

/** A part's address on the shop's domain, under the proxy path Shopify signed, checked. */
export function partUrl(
  primaryDomain: string,
  pathPrefix: string,
  part: number,
  locale: string | null,
  policy: UrlPolicy,
): string | null {
  const home = checkUrl(primaryDomain.trim().replace(/\/+$/, "") + "/", policy);
  if (home === null || !PROXY_PATH.test(pathPrefix)) return null;
  const url = new URL(`${pathPrefix}/${FEED_FILE}`, home);
  if (part > 1) url.searchParams.set("part", String(part));
  if (locale) url.searchParams.set("locale", locale);
  return checkUrl(url.href, policy);
}

/** The index of parts as a sitemaps.org index. */
export function indexXml(urls: readonly string[], lastModified: Date): string {
  const lastmod = lastModified.toISOString().replace(/\.\d{3}Z$/, "Z");
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
    urls.map((u) => `<sitemap>${element("loc", u)}${element("lastmod", lastmod)}</sitemap>\n`).join("") +
    "</sitemapindex>\n"
  );
}
