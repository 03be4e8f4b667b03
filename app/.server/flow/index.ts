// Shopify Flow: which of our triggers merchants use (the lifecycle callback).
// Other folders import from here only; the rest of the folder is private to it.
export { createFlowTriggerUse } from "./flow-trigger-use.repository";
export type { UseRecorded } from "./flow-trigger-use.repository";
