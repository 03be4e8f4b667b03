import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { appBridgeStandIn } from "./stand-in";

/**
 * Writes the stand-in's script into `dir` and returns the file's path, for ADMIN_LOCAL_BRIDGE_SCRIPT:
 * the app serves the file rather than importing the sandbox. Written beside and renamed into place,
 * so an app server of another run reading it never sees half a script (dev:local writes it again
 * once its local storefront is up, to read the theme from it).
 */
export function writeAppBridgeStandIn(dir: string, opts: { themeFrom?: string } = {}): string {
  mkdirSync(dir, { recursive: true });
  const file = resolve(join(dir, "app-bridge.js"));
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, appBridgeStandIn(opts));
  renameSync(partial, file);
  return file;
}
