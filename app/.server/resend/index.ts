// Resending what the service lost: unknown products and orders, a switch of account, the ledger of resends.
// Other folders import from here only; the rest of the folder is private to it.
export { reportAccountSwitch } from "./account-switch";
export { forgetWhatWasSent } from "./forget-sent";
export type { Forgotten } from "./forget-sent";
export { createResendLedger } from "./resend-ledger";
export type { ResendLedger } from "./resend-ledger";
export { resendUnknownOrder } from "./unknown-order";
export { resendUnknownProducts } from "./unknown-products";
