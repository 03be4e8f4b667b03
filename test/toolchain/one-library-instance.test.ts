import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

// The app makes one instance of Shopify's library, app/shopify.server.ts: one configuration (API
// version, secret, session storage, flags) for every check the library does for it. The app
// proxy's and Flow's signatures are checked by the app's own code, each held side by side with the
// library in its test (app-proxy-signature.test.ts, lifecycle-callback.test.ts): the library's own
// checks there would read the shop's offline session, or answer differently.

const ROOT = new URL("../..", import.meta.url).pathname;
const MAKERS = /\b(shopifyApp|shopifyApi)\s*\(/g;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe("Shopify library instances", () => {
  it("GIVEN the app's code (tests aside) THEN shopifyApp( or shopifyApi( is called once, in app/shopify.server.ts", () => {
    const calls = sources(join(ROOT, "app")).flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(MAKERS)].map((m) => `${relative(ROOT, file)}: ${m[1]}(`),
    );
    expect(calls).toEqual(["app/shopify.server.ts: shopifyApp("]);
  });
});
