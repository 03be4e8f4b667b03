// A small in-process cache with a time to live.
// Other folders import from here only; the rest of the folder is private to it.
export { createTtlCache, rememberPromise } from "./ttl-cache";
