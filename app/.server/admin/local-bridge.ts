import { readFile } from "node:fs/promises";
import { loadConfig } from "../config";

export const APP_BRIDGE_CDN_URL = "https://cdn.shopify.com/shopifycloud/app-bridge.js";
export const LOCAL_BRIDGE_PATH = "/local/app-bridge.js";

/**
 * Whether this process serves the App Bridge stand-in: only when `dev:local` asked for it, and
 * never in production, whatever the environment says.
 */
export function localBridgeEnabled(env: Record<string, string | undefined> = process.env): boolean {
  if (env.NODE_ENV === "production") return false;
  return loadConfig(env).ADMIN_LOCAL_BRIDGE === "1";
}

/**
 * The stand-in's script, read from the file `dev:local` wrote (ADMIN_LOCAL_BRIDGE_SCRIPT): its
 * source is sandbox code, which the app never imports. Null when it is not to be served.
 */
export async function localBridgeScript(env: Record<string, string | undefined> = process.env): Promise<string | null> {
  if (!localBridgeEnabled(env)) return null;
  const file = loadConfig(env).ADMIN_LOCAL_BRIDGE_SCRIPT;
  return file ? readFile(file, "utf8") : null;
}

/** The App Bridge script the embedded admin loads. */
export function appBridgeUrl(): string {
  return localBridgeEnabled() ? LOCAL_BRIDGE_PATH : APP_BRIDGE_CDN_URL;
}

/**
 * Shopify's library preloads App Bridge from its CDN on every embedded document (a `Link` header).
 * With the stand-in in use the page loads nothing from that CDN, so the preload goes too.
 */
export function dropCdnPreload(headers: Headers, enabled = localBridgeEnabled()): void {
  if (enabled && headers.get("Link")?.includes(APP_BRIDGE_CDN_URL)) headers.delete("Link");
}
