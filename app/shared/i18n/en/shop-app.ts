// English words of the Shop app section: whether the shop is in Shopify's product review program,
// and how many published reviews reached the Shop app, were left out, and why (one per reason of
// app/.server/shopapp/status.ts).

export const shopApp = {
  "shopApp.title": "Reviews in the Shop app",
  "shopApp.intro":
    "Published reviews are written to Shopify's standard product review format, which makes them eligible for the Shop app. Shopify decides which ones it shows.",
  "shopApp.program.enabled": "On: this store is in Shopify's product review program",
  "shopApp.program.notGranted": "Not available: Shopify has not granted this app its product review program yet",
  "shopApp.program.unknown": "Not checked yet: the next sync of reviews will ask Shopify",
  "shopApp.checkedAt": "Checked with Shopify: {date}",
  "shopApp.notGranted.help":
    "Reviews keep showing on your store and in its star ratings. The app asks Shopify again every day.",
  "shopApp.backfill.inProgress": "Your earlier reviews are still being written; new ones follow as they are published.",
  "shopApp.figure.eligible": "Published reviews",
  "shopApp.figure.syndicated": "In Shopify's review format",
  "shopApp.figure.leftOut": "Left out",
  "shopApp.figure.inShopify": "Shopify holds {count} reviews.",
  "shopApp.figure.inShopify.one": "Shopify holds {count} review.",
  "shopApp.figure.inShopify.other": "Shopify holds {count} reviews.",
  "shopApp.leftOut.title": "Why reviews were left out",
  "shopApp.leftOut.mostNoOrder":
    "{noOrder} of the {count} left out are simply not tied to an order (written on your store without one, or imported): the Shop app shows only reviews of a buyer's order. They still show on your store.",
  "shopApp.leftOut.mostNoOrder.one":
    "The one review left out is simply not tied to an order (written on your store without one, or imported): the Shop app shows only reviews of a buyer's order. It still shows on your store.",
  "shopApp.leftOut.none": "No published review was left out.",
  "shopApp.reason.no_order": "Not tied to an order (the Shop app needs the order)",
  "shopApp.reason.no_customer": "The order has no customer account (a guest checkout)",
  "shopApp.reason.no_product": "The product is not a Shopify product of this store",
  "shopApp.reason.no_submitted_at": "The review has no submission date",
  "shopApp.reason.refused": "Shopify refused it (see the app's logs for the field)",
  "shopApp.reason.count": "{count} reviews",
  "shopApp.reason.count.one": "{count} review",
  "shopApp.reason.count.other": "{count} reviews",
} as const;
