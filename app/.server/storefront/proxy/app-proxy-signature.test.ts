import "@shopify/shopify-app-remix/adapters/node";
import { LogSeverity, shopifyApp, type ApiVersion } from "@shopify/shopify-app-remix/server";
import { createHmac } from "node:crypto";
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SHOPIFY_API_VERSION } from "../../shopify";
import { appProxySignature, canonicalProxyQuery, signProxyQuery } from "./app-proxy-signature";
import { ProxySignatureError, appProxyCheck, verifyAppProxy } from "./verify-proxy.server";

// Shopify's documented example (shopify.dev, "Authenticate app proxies"): shared secret `hush`,
// the request `/apps/awesome_reviews/extra/path/components?extra=1&extra=2` forwarded with these
// parameters. The page writes the shop as `{shop}.myshopify.com`; both published digests are
// reproduced with `shop-name.myshopify.com`, the value of the original example.
const DOC_QUERY =
  "extra=1&extra=2&shop=shop-name.myshopify.com&logged_in_customer_id=1&path_prefix=%2Fapps%2Fawesome_reviews&timestamp=1317327555";
const DOC_SIGNATURE = "4c68c8624d737112c91818c11017d24d334b524cb5c2b8ba08daa056f7395ddb";
const DOC_SIGNATURE_LOGGED_OUT = "e072b6d7e6622d85912a5214b860d3100dc1e73d9bc29f43796ac8c9ff8093cb";
const DOC_TIME_MS = 1317327555 * 1000;

// The proxy routes' check (verify-proxy.server.ts), with the documented secret.
const ours = () => appProxyCheck("hush");

afterEach(() => vi.useRealTimers());

describe("app proxy signature (Shopify's documented test vector, secret hush)", () => {
  it("GIVEN the documented query THEN the signed string and the digest are the documented ones", () => {
    const params = new URLSearchParams(DOC_QUERY);
    expect(canonicalProxyQuery(params)).toBe(
      "extra=1,2logged_in_customer_id=1path_prefix=/apps/awesome_reviewsshop=shop-name.myshopify.comtimestamp=1317327555",
    );
    expect(appProxySignature(params, "hush")).toBe(DOC_SIGNATURE);
    expect(
      appProxySignature(
        new URLSearchParams(DOC_QUERY.replace("logged_in_customer_id=1", "logged_in_customer_id=")),
        "hush",
      ),
    ).toBe(DOC_SIGNATURE_LOGGED_OUT);
  });

  it("GIVEN a shopper query WHEN signed as Shopify forwards it THEN shopper-sent identity parameters are replaced", () => {
    const q = signProxyQuery(
      new URLSearchParams("page=2&shop=evil.myshopify.com&logged_in_customer_id=7"),
      { shop: "shop-name.myshopify.com", loggedInCustomerId: "", pathPrefix: "/apps/reviews" },
      "hush",
      1317327555,
    );
    expect(q.getAll("shop")).toEqual(["shop-name.myshopify.com"]);
    expect(q.get("logged_in_customer_id")).toBe("");
    expect(q.get("page")).toBe("2");
    expect(q.get("signature")).toBe(appProxySignature(q, "hush"));
  });

  it("GIVEN the documented request at its own time WHEN the check verifies it THEN it passes and yields the identity", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(DOC_TIME_MS);
    // The library reads each key once (its last value), so the repeated `extra` travels as the
    // one value Shopify signs for it, `1,2`: same signed string, same digest.
    const url = `https://reviews-app.test/apps/reviews/extra/path/components?${DOC_QUERY.replace("extra=1&extra=2", "extra=1%2C2")}&signature=${DOC_SIGNATURE}`;
    await expect(verifyAppProxy(new Request(url), ours())).resolves.toEqual({
      shop: "shop-name.myshopify.com",
      loggedInCustomerId: "1",
      pathPrefix: "/apps/awesome_reviews",
    });
  });

  it("GIVEN a changed parameter, another secret or a stale timestamp THEN the check refuses it", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(DOC_TIME_MS);
    const good = `${DOC_QUERY.replace("extra=1&extra=2", "extra=1%2C2")}&signature=${DOC_SIGNATURE}`;
    const tampered = good.replace("logged_in_customer_id=1", "logged_in_customer_id=2");
    await expect(
      verifyAppProxy(new Request(`https://reviews-app.test/apps/reviews/x?${tampered}`), ours()),
    ).rejects.toBeInstanceOf(ProxySignatureError);
    await expect(
      verifyAppProxy(
        new Request(
          `https://reviews-app.test/apps/reviews/x?${good.replace(/signature=\w+/, "signature=" + "0".repeat(64))}`,
        ),
        ours(),
      ),
    ).rejects.toBeInstanceOf(ProxySignatureError);
    // 91 s later the same signed request is stale.
    vi.setSystemTime(DOC_TIME_MS + 91_000);
    await expect(
      verifyAppProxy(new Request(`https://reviews-app.test/apps/reviews/x?${good}`), ours()),
    ).rejects.toBeInstanceOf(ProxySignatureError);
    vi.setSystemTime(DOC_TIME_MS + 89_000);
    await expect(
      verifyAppProxy(new Request(`https://reviews-app.test/apps/reviews/x?${good}`), ours()),
    ).resolves.toMatchObject({ shop: "shop-name.myshopify.com" });
  });
});

// The library's own `authenticate.public.appProxy`, as the routes used it before the app had one
// library instance (with a session storage that holds nothing): the judge of what a signed
// request is. Every generated request gets the same verdict from both.
type SessionStorage = NonNullable<Parameters<typeof shopifyApp>[0]["sessionStorage"]>;
const judge = shopifyApp({
  apiKey: "test-api-key",
  apiSecretKey: "hush",
  apiVersion: SHOPIFY_API_VERSION as ApiVersion,
  appUrl: "https://reviews-app.test",
  scopes: ["write_app_proxy"],
  sessionStorage: { loadSession: async () => undefined } as unknown as SessionStorage,
  logger: { level: LogSeverity.Error },
}).authenticate.public.appProxy;

/** 200, the status of a thrown Response, or "error" for anything else thrown. */
async function verdict(check: (r: Request) => Promise<unknown>, url: string): Promise<number | "error"> {
  try {
    await check(new Request(url));
    return 200;
  } catch (thrown) {
    return thrown instanceof Response ? thrown.status : "error";
  }
}

/** Signed as the library reads a query: repeated keys joined, sorted by localeCompare, hmac and signature left out. */
function librarySigned(pairs: Array<[string, string]>, secret: string): string {
  const byKey = new Map<string, string>();
  for (const [k, v] of pairs) byKey.set(k, byKey.has(k) ? `${byKey.get(k)},${v}` : v);
  const text = [...byKey]
    .filter(([k]) => k !== "signature" && k !== "hmac")
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${v}`)
    .join("");
  return createHmac("sha256", secret).update(text, "utf8").digest("hex");
}

describe("app proxy check against the library", () => {
  const NOW_S = 1_800_000_000;
  const keys = fc.constantFrom(
    "path_prefix",
    "logged_in_customer_id",
    "page",
    "Page",
    "_x",
    "a-b",
    "index",
    "hmac",
    "Z",
    "é",
  );
  const values = fc.constantFrom("", "1", "a b", "/apps/reviews", "%", "ü", ",");
  const request = fc.record({
    shop: fc.constantFrom(
      "shop-name.myshopify.com",
      "shop-name.myshopify.com",
      "admin.shopify.com/store/x",
      "x.example.com",
      null,
    ),
    shopTwice: fc.constantFrom(false, false, false, false, true),
    pairs: fc.array(fc.tuple(keys, values), { maxLength: 6 }),
    timestampOffset: fc.constantFrom(0, 0, 89, -90, 91, -200, null),
    timestampText: fc.constantFrom("int", "int", "int", "float", "blank", "hex"),
    path: fc.constantFrom("/apps/reviews", "/apps/reviews/", "/apps/reviews/products/sku-1/reviews", "/"),
    signAs: fc.constantFrom("plain", "plain", "data", "dataIndex", "wrongSecret", "upper", "none", "twice"),
  });

  it("GIVEN generated proxied requests, signed right, wrong, stale or oddly THEN ours and the library's give the same answer", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(NOW_S * 1000);
    const seen = { 200: 0, 400: 0, error: 0 } as Record<string, number>;
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const pairs: Array<[string, string]> = [...r.pairs];
        if (r.shop !== null) pairs.push(["shop", r.shop]);
        if (r.shop !== null && r.shopTwice) pairs.push(["shop", r.shop]);
        if (r.timestampOffset !== null) {
          const t = NOW_S + r.timestampOffset;
          const text = { int: String(t), float: `${t}.5`, blank: "", hex: `0x${t.toString(16)}` }[r.timestampText];
          pairs.push(["timestamp", text!]);
        }
        const route = r.path.replace(/^\//, "").replace(/\/$/, "").replaceAll("/", ".");
        const data = decodeURIComponent(`routes%2F${route}`);
        const withData = r.signAs === "data" ? [["_data", data] as [string, string], ...pairs] : pairs;
        const withIndex =
          r.signAs === "dataIndex" ? [["_data", `${data}._index`] as [string, string], ...pairs] : withData;
        let signature = librarySigned(withIndex, r.signAs === "wrongSecret" ? "other" : "hush");
        if (r.signAs === "upper") signature = signature.toUpperCase();
        const query = new URLSearchParams(pairs);
        if (r.signAs !== "none") query.append("signature", signature);
        if (r.signAs === "twice") query.append("signature", signature);
        const url = `https://reviews-app.test${r.path}?${query.toString()}`;
        const [mine, theirs] = [await verdict(ours(), url), await verdict(judge, url)];
        seen[theirs] = (seen[theirs] ?? 0) + 1;
        expect(mine).toBe(theirs);
      }),
      { numRuns: 800, seed: 39 },
    );
    // The property covered requests the library accepts and errs on, not only refusals.
    expect(seen[200]).toBeGreaterThan(50);
    expect(seen.error).toBeGreaterThan(5);
  });
});
