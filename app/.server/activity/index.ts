// What shoppers and orders did that makes a shop's back-sync poll sooner: the poll schedule and the touched
// products.
// Other folders import from here only; the rest of the folder is private to it.
export { noteOrderDelivered, noteShopperWrite } from "./activity";
export { QUIET_AFTER_MS } from "./cadence";
export { pollScheduleOf } from "./poll-schedule";
export type { ScheduleConfig } from "./poll-schedule";
export { markTouched, touchedProducts } from "./touched-products";
