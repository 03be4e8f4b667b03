import { invalidRequest, trimTrailingSlash } from "./http";
import { type RatePageParams, ratePageParamsSchema } from "./storefront.schemas";

/**
 * The service's rating page for one order:
 * `{rate_url}/rate/{customer}/{verificationTokenId}/{orderId}?sku=&ratingClicked=&embedded=1&source=`.
 * Pure; throws a ReviewsPermanentError (`invalid_request`) for parameters the page cannot take.
 */
export function ratePageUrl(params: RatePageParams): string {
  const parsed = ratePageParamsSchema.safeParse(params);
  if (!parsed.success) {
    throw invalidRequest({ api: "storefront", method: "GET", path: "/rate/{customer}/***/{orderId}" }, parsed.error);
  }
  const p = parsed.data;
  const url = new URL(
    `${trimTrailingSlash(p.rateUrl)}/rate/${[p.customer, p.verificationTokenId, p.orderId].map(encodeURIComponent).join("/")}`,
  );
  if (p.sku !== undefined) url.searchParams.set("sku", p.sku);
  if (p.ratingClicked !== undefined) url.searchParams.set("ratingClicked", String(p.ratingClicked));
  // "Value 1 turns on embedded mode"; any other value is simply not sent.
  if (p.embedded) url.searchParams.set("embedded", "1");
  if (p.source !== undefined) url.searchParams.set("source", p.source);
  return url.toString();
}
