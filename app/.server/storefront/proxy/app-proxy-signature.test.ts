import { afterEach, describe, expect, it, vi } from "vitest";
import { appProxySignature, canonicalProxyQuery, signProxyQuery } from "./app-proxy-signature";
import { ProxySignatureError, verifyAppProxy } from "./verify-proxy.server";
import { proxyAuthenticate } from "../../web/proxy-authenticate.server";

// Shopify's documented example (shopify.dev, "Authenticate app proxies"): shared secret `hush`,
// the request `/apps/awesome_reviews/extra/path/components?extra=1&extra=2` forwarded with these
// parameters. The page writes the shop as `{shop}.myshopify.com`; both published digests are
// reproduced with `shop-name.myshopify.com`, the value of the original example.
const DOC_QUERY =
  "extra=1&extra=2&shop=shop-name.myshopify.com&logged_in_customer_id=1&path_prefix=%2Fapps%2Fawesome_reviews&timestamp=1317327555";
const DOC_SIGNATURE = "4c68c8624d737112c91818c11017d24d334b524cb5c2b8ba08daa056f7395ddb";
const DOC_SIGNATURE_LOGGED_OUT = "e072b6d7e6622d85912a5214b860d3100dc1e73d9bc29f43796ac8c9ff8093cb";
const DOC_TIME_MS = 1317327555 * 1000;

// The library's authenticate.public.appProxy as the proxy routes use it (proxy-authenticate.server.ts).
const library = () =>
  proxyAuthenticate({
    apiKey: "test-api-key",
    apiSecretKey: "hush",
    appUrl: "https://reviews-app.test",
    scopes: "write_app_proxy",
  });

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

  it("GIVEN the documented request at its own time WHEN the library verifies it THEN it passes and yields the identity", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(DOC_TIME_MS);
    // The library reads each key once (its last value), so the repeated `extra` travels as the
    // one value Shopify signs for it, `1,2`: same signed string, same digest.
    const url = `https://reviews-app.test/apps/reviews/extra/path/components?${DOC_QUERY.replace("extra=1&extra=2", "extra=1%2C2")}&signature=${DOC_SIGNATURE}`;
    await expect(verifyAppProxy(new Request(url), library())).resolves.toEqual({
      shop: "shop-name.myshopify.com",
      loggedInCustomerId: "1",
      pathPrefix: "/apps/awesome_reviews",
    });
  });

  it("GIVEN a changed parameter, another secret or a stale timestamp THEN the library refuses it", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(DOC_TIME_MS);
    const good = `${DOC_QUERY.replace("extra=1&extra=2", "extra=1%2C2")}&signature=${DOC_SIGNATURE}`;
    const tampered = good.replace("logged_in_customer_id=1", "logged_in_customer_id=2");
    await expect(
      verifyAppProxy(new Request(`https://reviews-app.test/apps/reviews/x?${tampered}`), library()),
    ).rejects.toBeInstanceOf(ProxySignatureError);
    await expect(
      verifyAppProxy(
        new Request(
          `https://reviews-app.test/apps/reviews/x?${good.replace(/signature=\w+/, "signature=" + "0".repeat(64))}`,
        ),
        library(),
      ),
    ).rejects.toBeInstanceOf(ProxySignatureError);
    // 91 s later the same signed request is stale.
    vi.setSystemTime(DOC_TIME_MS + 91_000);
    await expect(
      verifyAppProxy(new Request(`https://reviews-app.test/apps/reviews/x?${good}`), library()),
    ).rejects.toBeInstanceOf(ProxySignatureError);
    vi.setSystemTime(DOC_TIME_MS + 89_000);
    await expect(
      verifyAppProxy(new Request(`https://reviews-app.test/apps/reviews/x?${good}`), library()),
    ).resolves.toMatchObject({ shop: "shop-name.myshopify.com" });
  });
});
