import type { PendingChanges } from "./pending-changes";
import type { ProductMirror } from "./product-mirror.repository";

// The catalog's stores among the services a job's use case may be given (jobs/services.ts).
declare module "../jobs/services" {
  interface JobServices {
    pending: PendingChanges;
    mirror: ProductMirror;
  }
}
