// The operator's command line (`npm run cli`).
// Other folders import from here only; the rest of the folder is private to it.
export { progressLine } from "./progress-bar";
