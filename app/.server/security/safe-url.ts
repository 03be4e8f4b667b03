import { observeUnsafeUrl } from "../metrics";

// The one rule for a URL that comes from the reviews service or a shopper before anything renders
// it (an admin link or thumbnail, a storefront snippet, a proxy fragment, a metafield the theme
// reads): an absolute `https://` URL to a named host, nothing else. `http://` survives only outside
// production (the local emulator and the demo serve plain http), decided from NODE_ENV. The check
// is strict on purpose rather than clever: a browser forgives whitespace, control characters,
// backslashes and missing slashes in ways that turn a harmless-looking string into another scheme
// or another host, so anything that needs forgiving is dropped instead of repaired.

/** Where a URL was about to be shown: the label of the drop counter. */
export type UrlPlace =
  | "admin.review_media"
  | "admin.product_image"
  | "storefront.review_media"
  | "storefront.review_source"
  | "storefront.source_logo"
  | "storefront.rate_url"
  | "storefront.order_item"
  | "admin.google_feed";

export interface UrlPolicy {
  /** Whether `http:` survives (development and tests only). */
  allowHttp: boolean;
}

/** https only in production; http too elsewhere (NODE_ENV development or test). */
export function urlPolicy(env: { NODE_ENV?: string } = process.env): UrlPolicy {
  return { allowHttp: env.NODE_ENV !== "production" };
}

const MAX_LENGTH = 2048;
// Controls, whitespace (ASCII and Unicode) and the backslash a browser reads as a slash.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const FORGIVEN = /[\u0000-\u0020\u007f-\u00a0\u1680\u180e\u2000-\u200f\u2028\u2029\u202f\u205f\u2060\u3000\ufeff\\]/u;

/** The URL as it will be rendered, or null when the rule drops it. Pure. */
export function checkUrl(raw: unknown, policy: UrlPolicy): string | null {
  if (typeof raw !== "string" || raw.length === 0 || raw.length > MAX_LENGTH || FORGIVEN.test(raw)) return null;
  // Absolute with exactly two slashes and a host after them: no relative, protocol-relative,
  // `https:host` or `https:///host` forms (the parser would quietly repair the last two).
  const scheme = /^(https?):\/\/[^/?#]/i.exec(raw)?.[1]?.toLowerCase();
  if (scheme !== "https" && !(scheme === "http" && policy.allowHttp)) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== `${scheme}:` || !url.hostname || url.username || url.password) return null;
  // What was checked is what is rendered: the parser's own serialisation.
  return url.href;
}

/** `checkUrl`, counting each URL it drops by the place that would have shown it. */
export function safeUrl(raw: unknown, place: UrlPlace, policy: UrlPolicy = urlPolicy()): string | null {
  if (raw === null || raw === undefined || raw === "") return null;
  const checked = checkUrl(raw, policy);
  if (checked === null) observeUnsafeUrl(place);
  return checked;
}
