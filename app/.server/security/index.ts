// Outbound URL checks and the admin's frame ancestors.
// Other folders import from here only; the rest of the folder is private to it.
export { denyFramingWithoutShop } from "./frame-ancestors";
export { checkUrl, safeUrl, urlPolicy } from "./safe-url";
export type { UrlPolicy } from "./safe-url";
export { serviceAddressAllowed } from "./service-address";
