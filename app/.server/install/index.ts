// A shop's install lifecycle: connecting its service account, resuming after reauth, uninstall and scope
// updates.
// Other folders import from here only; the rest of the folder is private to it.
export { appScopesUpdate, appUninstalled } from "./app-lifecycle";
export { forgetIfAnotherAccount, startFirstSyncs, verifyCredentials } from "./connect-shop";
export { resumeAfterReauth } from "./resume-after-reauth";
