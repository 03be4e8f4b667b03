// English words of the Google product ratings feed: why a review is left out of it, one per reason
// code of app/.server/google/feed-entry.ts, for the page that will list them.

export const googleFeed = {
  "googleFeed.reason.not_published": "Not published",
  "googleFeed.reason.empty_content": "The review has no text (Google needs some)",
  "googleFeed.reason.product_not_in_catalog": "The product is no longer in the synced catalog",
  "googleFeed.reason.product_inactive": "The product is draft, archived or deleted in Shopify",
  "googleFeed.reason.no_product_identifier": "No GTIN (barcode), and no MPN or SKU together with a vendor",
  "googleFeed.reason.no_product_url": "No product page on the store's primary domain",
  "googleFeed.reason.invalid_rating": "The rating is not a whole number from 1 to 5",
  "googleFeed.reason.invalid_timestamp": "The review has no valid date",
  "googleFeed.reason.no_review_id": "The review has no id",
} as const;
