// Shopify's library sets frame-ancestors on a document to the shop and Shopify's admin when the
// request names a shop. A document that names none (the login page, the index) gets no policy from
// it, so any site could frame it; the app is never framed without a shop, so those say 'none'.

export function denyFramingWithoutShop(headers: Headers): void {
  const policy = headers.get("Content-Security-Policy");
  if (policy && /(^|;)\s*frame-ancestors\s/i.test(policy)) return;
  headers.set("Content-Security-Policy", policy ? `${policy}; frame-ancestors 'none'` : "frame-ancestors 'none'");
}
