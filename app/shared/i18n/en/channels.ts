// English words of the "Google Shopping & Shop app" page: where the store's reviews go beyond the
// storefront, and what keeps some of them out.

export const channels = {
  "nav.channels": "Google Shopping & Shop app",
  "channels.title": "Google Shopping & Shop app",
  "channels.google.title": "Google Shopping",
  "channels.google.body":
    "Google shows star ratings in Shopping ads and free listings from a product reviews feed that you register in Merchant Center. This address serves your published reviews in Google's format, on your store's domain.",
  "channels.google.url": "Feed address for Merchant Center",
  "channels.google.copy": "Copy",
  "channels.google.copied": "Feed address copied",
  "channels.google.copyFailed": "The browser did not allow copying: select the address and copy it",
  "channels.google.urlHelp":
    "In Google Merchant Center, add a product reviews feed that fetches this address on a schedule (daily is enough).",
  "channels.google.noUrl": "The feed address could not be made from your store's domain.",
  "channels.google.none":
    "Merchant Center has not fetched the feed yet. After its first fetch, this page shows what the feed held.",
  "channels.google.belowMinimum":
    "Google takes a review feed only from stores with at least {minimum} reviews across all products. Your feed holds {count}, so Google does not show its ratings yet.",
  "channels.google.stale":
    "The feed was last fetched on {date}. Google stops using a feed that is not refreshed at least once a month: check the fetch schedule in Merchant Center.",
  "channels.google.ok": "Your feed holds more than Google's minimum of {minimum} reviews.",
  "channels.google.included": "Reviews in the feed",
  "channels.google.minimum": "Google's minimum",
  "channels.google.builtAt": "Last built",
  "channels.google.fetchedAt": "Last fetched",
  "channels.google.never": "Not yet",
  "channels.google.overSize": "{count} reviews were left out to keep the file under Google's size limit.",
  "channels.leftOut.title": "Products left out of the feed",
  "channels.leftOut.body":
    "Reviews of these products are not in the feed, for the reasons shown. Fix the product in Shopify: the next fetch includes its reviews.",
  "channels.leftOut.product": "Product",
  "channels.leftOut.products": "Products left out",
  "channels.leftOut.reasons": "Why",
  "channels.leftOut.fix": "Fix",
  "channels.leftOut.edit": "Edit in Shopify",
  "channels.leftOut.editLabel": "Edit in Shopify: {product}",
  "channels.leftOut.noLink": "Not linked to a Shopify product",
  "channels.leftOut.key": "Catalog key {key}",
  "channels.leftOut.empty": "No product left out",
  "channels.leftOut.emptyBody": "Every product with reviews in the last feed had what Google needs.",
  "channels.leftOut.capped": "The list shows the first {count} products left out.",
} as const;
