// Errors of the back-sync, by what the caller does. Service and Shopify failures keep their own
// types (reviews/errors.ts: retryable → backoff, rate_limited → wait Retry-After; shopify/errors.ts:
// throttled → wait for the cost budget, auth → stop for the shop). What is added here:

/** The shop cannot be back-synced now (not connected, uninstalled): the job ends without retrying. */
export class BackSyncSkipped extends Error {
  constructor(readonly shop: string, readonly reason: string) {
    super(`back-sync of ${shop} skipped: ${reason}`);
    this.name = "BackSyncSkipped";
  }
}
