// Shoppers' reviews and questions the service could not take when they were sent: kept sealed,
// then submitted by a worker until the service takes them.
// Other folders import from here only; the rest of the folder is private to it.
export { keepPendingReview } from "./pending-reviews";
export { submitPendingJobSchema, submitPendingReview } from "./submit-pending";
export type { PendingPayload } from "./pending-reviews";
