import { topicAdapter } from "../outcome-adapter";
import { appScopesUpdate as recordGrantedScopes, appUninstalled as markUninstalled } from "../../app/.server/install";

// app/uninstalled and app/scopes_update (app/.server/install/app-lifecycle.ts).
export const appUninstalled = topicAdapter(markUninstalled);
export const appScopesUpdate = topicAdapter(recordGrantedScopes);
