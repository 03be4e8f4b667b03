import { describe, expect, it } from "vitest";
import { checkProductReviewFeed } from "./feed-check";

// A feed with every optional element of the 2.3 description, in its order (the shape of Google's
// published sample feed), then one change at a time that Google's schema or matching refuses.

const REVIEW = `<review>
  <review_id>14295</review_id>
  <reviewer><name is_anonymous="true">Anonymous</name><reviewer_id>509769</reviewer_id></reviewer>
  <review_timestamp>2026-04-21T07:07:07Z</review_timestamp>
  <title>Excellent</title>
  <content>Got it for a friend and he loved it.</content>
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
  <collection_method>unsolicited</collection_method>
  <transaction_id>1001</transaction_id>
</review>`;

const feed = (reviews: string, head = "<version>2.3</version>") => `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns:vc="http://www.w3.org/2007/XMLSchema-versioning" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
 xsi:noNamespaceSchemaLocation="http://www.google.com/shopping/reviews/schema/product/2.3/product_reviews.xsd">
${head}
<aggregator><name>Reviews app</name></aggregator>
<publisher><name>Sample Retailer</name><favicon>https://shop.example.com/favicon.png</favicon></publisher>
<reviews>${reviews}</reviews>
</feed>`;

const messages = (xml: string) => checkProductReviewFeed(xml).map((p) => p.message);

describe("checkProductReviewFeed", () => {
  it("accepts a feed with every element of the 2.3 description in order", () => {
    expect(checkProductReviewFeed(feed(REVIEW + REVIEW.replace("14295", "14296")))).toEqual([]);
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
    ["bad review_url type", REVIEW.replace('type="singleton"', 'type="page"'), "review_url type page"],
    ["no review_url type", REVIEW.replace(' type="singleton"', ""), "attribute type missing"],
    ["rating out of range", REVIEW.replace(">4.4<", ">6<"), "rating 6 not within 1..5"],
    ["date only", REVIEW.replace("2026-04-21T07:07:07Z", "2026-04-21"), "not an xs:dateTime"],
    ["bad is_spam", REVIEW.replace(">false<", ">no<"), "not a boolean"],
    ["bad collection method", REVIEW.replace(">unsolicited<", ">email<"), "collection_method email"],
    ["unknown attribute", REVIEW.replace("<content>", '<content lang="en">'), "attribute lang not allowed"],
    ["unescaped ampersand", REVIEW.replace("Pricey", "Price & value"), "unescaped &"],
  ];
  it.each(refused)("refuses %s", (_, review, message) => {
    expect(messages(feed(review)).join("; ")).toContain(message);
  });

  it("refuses duplicate review ids", () => {
    expect(messages(feed(REVIEW + REVIEW))).toContain("duplicate review_id 14295");
  });

  it("refuses another schema version and a feed that is not XML", () => {
    expect(messages(feed(REVIEW, "<version>2.4</version>"))).toContain("version 2.4, expected 2.3");
    expect(messages(feed(REVIEW).replace("</feed>", ""))).toContain("<feed> is never closed");
    expect(messages(feed(REVIEW).replace("</products>", "</product>"))[0]).toMatch(/closes/);
    expect(messages(feed(REVIEW).replace(/^<\?xml[^>]*>/, ""))).toContain("missing XML declaration");
    expect(messages(feed(REVIEW).replace("<reviews>", "<reviews><![CDATA[x]]>")).join()).toContain("unexpected");
  });
});
