import { describe, expect, it } from "vitest";
import { localBridgeEnabled } from "./local-bridge";

// The App Bridge stand-in is served for `dev:local` only, never in production.
const env = (over: Record<string, string>) => ({ ...process.env, ...over });

describe("local App Bridge stand-in", () => {
  it("GIVEN dev:local's flag in development THEN the app serves it", () => {
    expect(localBridgeEnabled(env({ NODE_ENV: "development", ADMIN_LOCAL_BRIDGE: "1" }))).toBe(true);
  });
  it("GIVEN production THEN never, whatever the flag says", () => {
    expect(localBridgeEnabled(env({ NODE_ENV: "production", ADMIN_LOCAL_BRIDGE: "1" }))).toBe(false);
  });
  it("GIVEN no flag THEN Shopify's CDN script as usual", () => {
    expect(localBridgeEnabled(env({ NODE_ENV: "development", ADMIN_LOCAL_BRIDGE: "0" }))).toBe(false);
  });
});
