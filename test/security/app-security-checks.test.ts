import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { addDocumentResponseHeaders, apiVersion } from "../../app/shopify.server";
import { SHOPIFY_API_VERSION } from "../../app/.server/shopify/api-version";
import { denyFramingWithoutShop } from "../../app/.server/security/frame-ancestors";

// Shopify's app security checks that a file or a header shows (docs/security.md lists all 36 and
// where each is proved): frame-ancestors per shop on the admin's documents (the headers
// app/entry.server.tsx puts on every document), a supported API version, and dependency security
// automation at the repository root.

const csp = (shop: string | null, path = "/app") => {
  const headers = new Headers();
  const query = shop ? `?embedded=1&shop=${shop}&host=x` : "";
  addDocumentResponseHeaders(new Request(`https://reviews-app.test${path}${query}`), headers);
  denyFramingWithoutShop(headers);
  return headers.get("content-security-policy") ?? "";
};
const ancestors = (policy: string) => /frame-ancestors ([^;]*)/.exec(policy)?.[1]?.split(/\s+/) ?? [];

describe("MISSING_EMBEDDED_CSP / STATIC_FRAME_ANCESTORS", () => {
  it("GIVEN an admin document for a shop THEN only that shop and Shopify's admin may frame it, never a wildcard or another shop", () => {
    const a = ancestors(csp("alpha-store.myshopify.com"));
    const b = ancestors(csp("bravo-store.myshopify.com"));
    expect(a).toContain("https://alpha-store.myshopify.com");
    expect(a).toContain("https://admin.shopify.com");
    expect(a).not.toContain("https://bravo-store.myshopify.com");
    expect(b).toContain("https://bravo-store.myshopify.com");
    for (const source of [...a, ...b]) expect(source).not.toMatch(/^(\*|https?:\/\/\*\.myshopify\.com|https:\/\/\*)$/);
  });

  it("GIVEN a document with no shop (the login page, the index) THEN no one may frame it", () => {
    expect(ancestors(csp(null, "/auth/login"))).toEqual(["'none'"]);
    expect(ancestors(csp(null, "/"))).toEqual(["'none'"]);
  });
});

describe("EOL_API_VERSION", () => {
  it("GIVEN the app's Admin API version THEN the library, the calls and shopify.app.toml agree, and it is within Shopify's 12 months of support", () => {
    const toml = readFileSync("shopify.app.toml", "utf8");
    expect(/^api_version = "([^"]+)"/m.exec(toml)?.[1]).toBe(SHOPIFY_API_VERSION);
    expect(String(apiVersion)).toBe(SHOPIFY_API_VERSION);
    // Shopify releases a version each quarter and supports it for at least 12 months (plus 30 days' grace).
    const [year, month] = SHOPIFY_API_VERSION.split("-").map(Number) as [number, number];
    const endOfSupport = Date.UTC(year + 1, month - 1, 1) + 30 * 86_400_000;
    expect(endOfSupport).toBeGreaterThan(Date.now());
  });
});

describe("MISSING_DEPENDENCY_SECURITY_AUTOMATION", () => {
  it("GIVEN the repository root THEN a Dependabot configuration covers the npm packages at /", () => {
    const config = readFileSync(".github/dependabot.yml", "utf8");
    expect(config).toMatch(/^version: 2$/m);
    expect(config).toMatch(/- package-ecosystem: "npm"\n\s+directory: "\/"/);
  });
});
