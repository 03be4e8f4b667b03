// Prometheus metrics and their endpoint.
// Other folders import from here only; the rest of the folder is private to it.
export {
  metrics,
  observeAddressRefusal,
  observeJob,
  observeResend,
  observeServiceCall,
  observeServicePause,
  observeShopifyThrottle,
  observeSyncReadPath,
  observeSyncRun,
  observeTokenMigration,
  observeTokenRefresh,
  observeTokenState,
  observeUnsafeUrl,
  observeWebhook,
} from "./metrics";
export { queueSource } from "./queue-source";
export { startMetricsServer } from "./server";
