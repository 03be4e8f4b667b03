// Secrets sealed at rest.
// Other folders import from here only; the rest of the folder is private to it.
export { SecretBoxError, keyFrom, mask, open, seal } from "./secret-box";
