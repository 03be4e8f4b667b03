import { describe, expect, it } from "vitest";
import { checkProductReviewFeed } from "./feed-check";

// A feed with every optional element of the 2.4 description, in its order (the shape of Google's
// published 2.4 sample feed), then one change at a time that Google's schema or matching refuses.

const REVIEW = `<review>
  <review_id>14295</review_id>
  <reviewer><name is_anonymous="true">Anonymous</name><reviewer_id>509769</reviewer_id></reviewer>
  <is_verified_purchase>true</is_verified_purchase>
  <is_incentivized_review>false</is_incentivized_review>
  <review_timestamp>2026-04-21T07:07:07Z</review_timestamp>
  <title>Excellent</title>
  <content>Got it for a friend and he loved it.</content>
  <review_language>pt-BR</review_language>
  <review_country>BR</review_country>
  <pros><pro>Sleek design</pro></pros>
  <cons><con>Pricey</con></cons>
  <review_url type="singleton">https://shop.example.com/review_14295.html</review_url>
  <reviewer_images><reviewer_image><url>https://shop.example.com/test.jpg</url></reviewer_image></reviewer_images>
  <ratings><overall min="1" max="5">4.4</overall></ratings>
  <products><product>
    <product_ids>
      <gtins><gtin>5012345678900</gtin></gtins>
      <mpns><mpn>60101-10000</mpn></mpns>
      <skus><sku>6206</sku></skus>
      <brands><brand>Acme</brand></brands>
      <asins><asin>B07YMJ57MB</asin></asins>
    </product_ids>
    <product_name>Tablet case</product_name>
    <product_url>https://shop.example.com/products/tablet-case</product_url>
  </product></products>
  <is_spam>false</is_spam>
  <collection_method>post_fulfillment</collection_method>
  <transaction_id>1001</transaction_id>
</review>`;

const XSD = "http://www.google.com/shopping/reviews/schema/product/2.4/product_reviews.xsd";
const feed = (reviews: string, head = "<version>2.4</version>", xsd = XSD) => `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns:vc="http://www.w3.org/2007/XMLSchema-versioning" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
 xsi:noNamespaceSchemaLocation="${xsd}">
${head}
<aggregator><name>Reviews app</name></aggregator>
<publisher><name>Sample Retailer</name><favicon>https://shop.example.com/favicon.png</favicon></publisher>
<reviews>${reviews}</reviews>
</feed>`;

const messages = (xml: string) => checkProductReviewFeed(xml).map((p) => p.message);

describe("checkProductReviewFeed", () => {
  it("accepts a feed with every element of the 2.4 description in order", () => {
    expect(checkProductReviewFeed(feed(REVIEW + REVIEW.replace("14295", "14296")))).toEqual([]);
  });

  it("accepts a review with only what 2.4 requires (no verified mark, incentive, channel or order)", () => {
    const minimal = REVIEW.replace(/<is_verified_purchase>.*<\/is_verified_purchase>/, "")
      .replace(/<is_incentivized_review>.*<\/is_incentivized_review>/, "")
      .replace(/<title>.*<\/title>|<review_language>.*<\/review_language>|<review_country>.*<\/review_country>/g, "")
      .replace(/<pros>.*<\/pros>|<cons>.*<\/cons>|<reviewer_images>.*<\/reviewer_images>/g, "")
      .replace(/<is_spam>.*<\/is_spam>|<collection_method>.*<\/collection_method>/g, "")
      .replace(/<transaction_id>.*<\/transaction_id>/, "");
    expect(minimal).not.toContain("is_verified_purchase");
    expect(checkProductReviewFeed(feed(minimal))).toEqual([]);
  });

  const refused: [string, string, string][] = [
    ["empty content", REVIEW.replace(/<content>.*<\/content>/, "<content>  </content>"), "<content> is empty"],
    ["no content", REVIEW.replace(/<content>.*<\/content>/, ""), "<content> missing"],
    ["elements out of order", REVIEW.replace(/(<title>.*<\/title>)\s*(<content>.*<\/content>)/, "$2$1"), "not allowed"],
    [
      "no product identifier",
      REVIEW.replace(/<product_ids>[\s\S]*<\/product_ids>/, ""),
      "product without a GTIN, MPN + brand or SKU + brand",
    ],
    [
      "MPN without a brand",
      REVIEW.replace(/<gtins>.*<\/gtins>/, "").replace(/<brands>.*<\/brands>/, ""),
      "product without a GTIN, MPN + brand or SKU + brand",
    ],
    ["no product URL", REVIEW.replace(/<product_url>.*<\/product_url>/, ""), "<product_url> missing"],
    ["relative URL", REVIEW.replace("https://shop.example.com/products/", "/products/"), "not an http(s) URL"],
    ["bad review_url type", REVIEW.replace('type="singleton"', 'type="page"'), "review_url type: page is not one of"],
    ["no review_url type", REVIEW.replace(' type="singleton"', ""), "attribute type missing"],
    ["rating out of range", REVIEW.replace(">4.4<", ">6<"), "rating 6 not within 1..5"],
    ["date only", REVIEW.replace("2026-04-21T07:07:07Z", "2026-04-21"), "not an xs:dateTime"],
    ["bad is_spam", REVIEW.replace("<is_spam>false<", "<is_spam>no<"), "<is_spam> not an xs:boolean: no"],
    [
      "bad is_verified_purchase",
      REVIEW.replace("<is_verified_purchase>true<", "<is_verified_purchase>yes<"),
      "<is_verified_purchase> not an xs:boolean: yes",
    ],
    [
      "bad is_incentivized_review",
      REVIEW.replace("<is_incentivized_review>false<", "<is_incentivized_review>maybe<"),
      "<is_incentivized_review> not an xs:boolean: maybe",
    ],
    [
      "the 2.4 flags after the timestamp (2.4 puts them right after <reviewer>)",
      REVIEW.replace(
        /(<is_verified_purchase>.*<\/is_incentivized_review>)\s*(<review_timestamp>.*<\/review_timestamp>)/s,
        "$2$1",
      ),
      "<is_verified_purchase> not allowed here",
    ],
    [
      "the incentive flag before the verified one",
      REVIEW.replace(
        /(<is_verified_purchase>.*<\/is_verified_purchase>)\s*(<is_incentivized_review>.*<\/is_incentivized_review>)/,
        "$2$1",
      ),
      "not allowed here",
    ],
    [
      "language after the pros",
      REVIEW.replace(/(<review_language>.*<\/review_language>)([\s\S]*<\/pros>)/, "$2$1"),
      "not allowed here",
    ],
    [
      "transaction id before the collection method",
      REVIEW.replace(/(<collection_method>.*<\/collection_method>)\s*(<transaction_id>.*<\/transaction_id>)/, "$2$1"),
      "not allowed here",
    ],
    [
      "bad collection method",
      REVIEW.replace(">post_fulfillment<", ">email<"),
      "<collection_method> email is not one of unsolicited, post_fulfillment",
    ],
    ["collection method in capitals", REVIEW.replace(">post_fulfillment<", ">POST_FULFILLMENT<"), "is not one of"],
    [
      "empty transaction id",
      REVIEW.replace(/<transaction_id>.*<\/transaction_id>/, "<transaction_id> </transaction_id>"),
      "<transaction_id> is empty",
    ],
    [
      "two transaction ids",
      REVIEW.replace(
        "<transaction_id>1001</transaction_id>",
        "<transaction_id>1</transaction_id><transaction_id>2</transaction_id>",
      ),
      "<transaction_id> more than once",
    ],
    ["country not ISO 3166", REVIEW.replace(">BR<", ">Brazil<"), "not an ISO 3166-1 alpha-2 country code: Brazil"],
    ["language not a code", REVIEW.replace(">pt-BR<", ">Portuguese<"), "not a language code: Portuguese"],
    ["unknown attribute", REVIEW.replace("<content>", '<content lang="en">'), "attribute lang not allowed"],
    ["unescaped ampersand", REVIEW.replace("Pricey", "Price & value"), "unescaped &"],
  ];
  it.each(refused)("refuses %s", (_, review, message) => {
    expect(messages(feed(review)).join("; ")).toContain(message);
  });

  it("refuses duplicate review ids", () => {
    expect(messages(feed(REVIEW + REVIEW))).toContain("duplicate review_id 14295");
  });

  it("refuses another schema version or schema location, and a feed that is not XML", () => {
    expect(messages(feed(REVIEW, "<version>2.3</version>")).join()).toContain("version 2.3, expected 2.4");
    const old = XSD.replace("/2.4/", "/2.3/");
    expect(messages(feed(REVIEW, undefined, old))).toEqual([`schema location ${old}, expected ${XSD}`]);
    expect(messages(feed(REVIEW).replace("</feed>", ""))).toContain("<feed> is never closed");
    expect(messages(feed(REVIEW).replace("</products>", "</product>"))[0]).toMatch(/closes/);
    expect(messages(feed(REVIEW).replace(/^<\?xml[^>]*>/, ""))).toContain("missing XML declaration");
    expect(messages(feed(REVIEW).replace("<reviews>", "<reviews><![CDATA[x]]>")).join()).toContain("unexpected");
  });
});
