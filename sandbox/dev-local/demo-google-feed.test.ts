import { describe, expect, it } from "vitest";
import { emptyReport, writeFeed } from "../../app/.server/google/feed-writer";
import { adminReview, collect, feedShop, memorySource, PRODUCTS } from "../../app/.server/google/feed.testkit";
import { googleFeedVerdict } from "./demo-google-feed";

// What `dev:local --check` says of the feed it fetched through the storefront: the app's writer
// passes the 2.4 checker; a 2.3 feed, an empty one or a failed fetch fails the demo.

const feed = async (reviews = [adminReview({ orderId: "5001" }), adminReview({ verified: false, source: "web" })]) =>
  collect(
    writeFeed(
      memorySource([reviews], [PRODUCTS.tee]).source,
      { shop: feedShop(), publisherName: "Demo" },
      emptyReport(),
    ),
  );

describe("dev:local --check: the Google feed", () => {
  it("GIVEN the app's feed THEN one line with the 2.4 checker's verdict and what the 2.4 elements hold", async () => {
    expect(googleFeedVerdict(200, await feed())).toBe(
      "google feed check: 2 reviews (1 verified purchases, 1 with their order, 1 from review requests) in a feed that passes the 2.4 checker, through the app proxy",
    );
  });

  it("GIVEN a 2.3 feed THEN the check fails naming the version and the schema location", async () => {
    const old = (await feed()).replace("<version>2.4</version>", "<version>2.3</version>").replace("/2.4/", "/2.3/");
    expect(() => googleFeedVerdict(200, old)).toThrow(/2 problems.*schema location.*version 2\.3, expected 2\.4/);
  });

  it("GIVEN no review or a failed fetch THEN the check fails", async () => {
    const empty = await collect(
      writeFeed(memorySource([[]], []).source, { shop: feedShop(), publisherName: "Demo" }, emptyReport()),
    );
    expect(() => googleFeedVerdict(200, empty)).toThrow("holds no review");
    expect(() => googleFeedVerdict(404, "Not found")).toThrow("the app proxy answered 404");
  });
});
