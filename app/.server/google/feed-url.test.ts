import { describe, expect, it } from "vitest";
import { googleFeedUrl } from "./feed-url";

describe("the feed address the admin shows", () => {
  it("GIVEN the storefront's address and its proxy path THEN the feed under them, one slash between", () => {
    expect(googleFeedUrl("https://shop.example.com/", "/apps/reviews")).toBe(
      "https://shop.example.com/apps/reviews/google-feed.xml",
    );
    expect(googleFeedUrl("https://shop.example.com", "/a/ratings")).toBe(
      "https://shop.example.com/a/ratings/google-feed.xml",
    );
  });

  it("GIVEN a stored domain that is not a plain https address THEN nothing is shown", () => {
    for (const bad of ["javascript:alert(1)//", "https://user:pw@shop.example.com", "//shop.example.com", ""])
      expect(googleFeedUrl(bad, "/apps/reviews")).toBeNull();
  });
});
