import { describe, expect, it } from "vitest";
import { HOSTILE_URLS, HTTP_URL, SAFE_URLS } from "../../../test/fixtures/hostile-urls";
import { metrics } from "../metrics/metrics";
import { checkUrl, safeUrl, urlPolicy } from "./safe-url";

const production = urlPolicy({ NODE_ENV: "production" });
const development = urlPolicy({ NODE_ENV: "development" });

const dropped = async (place: string) =>
  (await metrics().unsafeUrls.get()).values.find((v) => v.labels.place === place)?.value ?? 0;

describe("the one URL rule", () => {
  it.each(HOSTILE_URLS.map((u) => [JSON.stringify(u).slice(0, 80), u]))(
    "GIVEN %s THEN it is dropped in production and in development",
    (_name, raw) => {
      expect(checkUrl(raw, production)).toBeNull();
      expect(checkUrl(raw, development)).toBeNull();
    },
  );

  it("GIVEN real https photo links THEN they survive as the URL parser writes them", () => {
    for (const { raw, href } of SAFE_URLS) {
      expect(checkUrl(raw, production)).toBe(href);
      expect(checkUrl(raw, development)).toBe(href);
    }
  });

  it("GIVEN plain http THEN it survives outside production only", () => {
    expect(checkUrl(HTTP_URL, development)).toBe(HTTP_URL);
    expect(urlPolicy({ NODE_ENV: "test" }).allowHttp).toBe(true);
    expect(checkUrl(HTTP_URL, production)).toBeNull();
  });

  it("GIVEN values that are not strings THEN they are dropped", () => {
    for (const v of [42, {}, ["https://cdn.reviews.example/a.jpg"], true]) expect(checkUrl(v, development)).toBeNull();
  });

  it("GIVEN a drop THEN it is counted by place; an absent URL is not a drop", async () => {
    const before = await dropped("admin.review_media");
    expect(safeUrl("javascript:alert(1)", "admin.review_media", production)).toBeNull();
    expect(safeUrl(HTTP_URL, "admin.review_media", production)).toBeNull();
    expect(await dropped("admin.review_media")).toBe(before + 2);
    expect(safeUrl(undefined, "admin.review_media", production)).toBeNull();
    expect(safeUrl(null, "admin.review_media", production)).toBeNull();
    expect(safeUrl("", "admin.review_media", production)).toBeNull();
    expect(safeUrl(SAFE_URLS[0]!.raw, "admin.review_media", production)).toBe(SAFE_URLS[0]!.href);
    expect(await dropped("admin.review_media")).toBe(before + 2);
  });
});
