import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkProductReviewFeed } from "./feed-check";
import { emptyReport, FEED_CHUNK_BYTES, writeFeed, type FeedReport } from "./feed-writer";
import { adminReview, collect, feedShop, memorySource, PRODUCTS } from "./feed.testkit";

// Every feed written here is checked twice: by the checker written from Google's 2.4 description,
// and by xmllint as XML (well-formed, UTF-8).

const dir = mkdtempSync(join(tmpdir(), "google-feed-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function xmllint(xml: string): string {
  const file = join(dir, `feed-${Math.random().toString(36).slice(2)}.xml`);
  writeFileSync(file, xml, "utf8");
  try {
    execFileSync("xmllint", ["--noout", "--encode", "UTF-8", file], { stdio: "pipe" });
    return "";
  } catch (e) {
    return String((e as { stderr?: Buffer }).stderr ?? e);
  }
}

const ALL = Object.values(PRODUCTS);
const opts = { shop: feedShop(), publisherName: "Harbor & Birch" };

async function written(pages: Parameters<typeof memorySource>[0], maxBytes?: number) {
  const { source, reads } = memorySource(pages, ALL);
  const report: FeedReport = emptyReport();
  const xml = await collect(writeFeed(source, { ...opts, maxBytes }, report));
  return { xml, report, reads };
}

describe("writeFeed", () => {
  it("writes a feed Google's 2.4 description and xmllint accept, for a shop like the demo's", async () => {
    const pages = [
      [
        adminReview({ name: "Maria S.", rating: 5 }),
        adminReview({ sku: PRODUCTS.sensor.sku, name: null, rating: 3, verified: false, text: "Reads 2% high." }),
      ],
      [adminReview({ sku: PRODUCTS.creme.sku, name: "Zoë 佐藤", text: "Délicieux 🍰 — « parfait »" })],
      [adminReview({ sku: PRODUCTS.pillow.sku, text: "Soft linen; the zip is hidden." })],
    ];
    const { xml, report } = await written(pages);
    expect(checkProductReviewFeed(xml)).toEqual([]);
    expect(xmllint(xml)).toBe("");
    expect(report).toMatchObject({ included: 4, duplicates: 0, excluded: {}, overSize: 0 });
    expect(report.bytes).toBe(Buffer.byteLength(xml));
    expect(xml).toContain("<version>2.4</version>");
    expect(xml).toContain(
      'xsi:noNamespaceSchemaLocation="http://www.google.com/shopping/reviews/schema/product/2.4/product_reviews.xsd"',
    );
    expect(xml).toContain("<publisher><name>Harbor &amp; Birch</name></publisher>");
    expect(xml).toContain('<name is_anonymous="true">Anonymous</name>');
    expect(xml).toContain("<name>Zoë 佐藤</name>");
    expect(xml).toContain("<skus><sku>B796,krt105</sku></skus><brands><brand>Digilog.pk</brand></brands>");
    expect(xml).toContain(
      '<review_url type="group">https://shop.example.com/products/heavyweight-organic-tee</review_url>',
    );
  });

  it("GIVEN a verified review from the service's e-mail request THEN the 2.4 elements stand in the schema's order", async () => {
    const r = adminReview({ verified: true, source: "email", orderId: "5123456789012" });
    const { xml } = await written([[r]]);
    expect(checkProductReviewFeed(xml)).toEqual([]);
    const review = /<review>[\s\S]*<\/review>/.exec(xml)![0];
    expect(review).toMatch(
      /<\/reviewer><is_verified_purchase>true<\/is_verified_purchase><review_timestamp>.*<\/products><is_spam>false<\/is_spam><collection_method>post_fulfillment<\/collection_method><transaction_id>5123456789012<\/transaction_id><\/review>/,
    );
    expect(review).not.toContain("is_incentivized_review");
  });

  it("GIVEN a review without a verified mark, channel or order THEN none of those elements, and still valid", async () => {
    const r = adminReview({ verified: undefined, source: undefined, orderId: undefined });
    const { xml } = await written([[r]]);
    expect(checkProductReviewFeed(xml)).toEqual([]);
    expect(xmllint(xml)).toBe("");
    for (const name of ["is_verified_purchase", "is_incentivized_review", "collection_method", "transaction_id"])
      expect(xml).not.toContain(`<${name}>`);
  });

  it("GIVEN an unverified review written on the product page THEN false and unsolicited", async () => {
    const { xml } = await written([[adminReview({ verified: false, source: "web" })]]);
    expect(checkProductReviewFeed(xml)).toEqual([]);
    expect(xml).toContain("<is_verified_purchase>false</is_verified_purchase>");
    expect(xml).toContain("<collection_method>unsolicited</collection_method>");
  });

  it("GIVEN the merchant offers incentives THEN every review says so, after the verified mark", async () => {
    const { source } = memorySource([[adminReview(), adminReview({ verified: undefined })]], ALL);
    const shop = feedShop({ incentivizedReviews: true });
    const xml = await collect(writeFeed(source, { ...opts, shop }));
    expect(checkProductReviewFeed(xml)).toEqual([]);
    expect(xml.match(/<is_incentivized_review>true<\/is_incentivized_review><review_timestamp>/g)).toHaveLength(2);
    expect(xml).toContain(
      "<is_verified_purchase>true</is_verified_purchase><is_incentivized_review>true</is_incentivized_review>",
    );
  });

  it("writes a review the list repeats across pages once", async () => {
    const moved = adminReview();
    const { xml, report } = await written([
      [adminReview(), moved],
      [moved, adminReview()],
    ]);
    expect(xml.split(`<review_id>${moved._id}</review_id>`)).toHaveLength(2);
    expect(report).toMatchObject({ included: 3, duplicates: 1 });
    expect(checkProductReviewFeed(xml)).toEqual([]);
  });

  it("leaves out what Google rejects, counts why, and stays valid", async () => {
    const kept = adminReview();
    const pages = [
      [
        kept,
        adminReview({ text: "   " }),
        adminReview({ sku: PRODUCTS.giftWrap.sku }),
        adminReview({ sku: "7982135000000" }),
        adminReview({ sku: PRODUCTS.tote.sku }),
        adminReview({ status: "pending" }),
      ],
    ];
    const { xml, report } = await written(pages);
    expect(report.included).toBe(1);
    expect(report.excluded).toEqual({
      empty_content: 1,
      no_product_identifier: 1,
      product_not_in_catalog: 1,
      product_inactive: 1,
      not_published: 1,
    });
    // What a page can list for the merchant to fix, by product.
    expect(report.products).toEqual({
      [PRODUCTS.giftWrap.sku]: ["no_product_identifier"],
      "7982135000000": ["product_not_in_catalog"],
      [PRODUCTS.tote.sku]: ["product_inactive"],
    });
    expect(xml.match(/<review>/g)).toHaveLength(1);
    expect(xml).toContain(kept._id);
    expect(checkProductReviewFeed(xml)).toEqual([]);
    expect(xmllint(xml)).toBe("");
  });

  it("escapes markup and drops characters XML cannot carry in every value", async () => {
    const hostile = adminReview({
      name: `</name><script>alert("x")</script>`,
      text: "5 < 6 && \"quotes\" 'too' ]]> \u0000\u0007 end",
    });
    const { xml } = await written([[hostile]]);
    expect(xml).not.toContain("<script>");
    expect(xml).toContain("<content>5 &lt; 6 &amp;&amp; &quot;quotes&quot; &apos;too&apos; ]]&gt;  end</content>");
    expect(checkProductReviewFeed(xml)).toEqual([]);
    expect(xmllint(xml)).toBe("");
  });

  it("writes a valid feed without <reviews> when no review qualifies", async () => {
    const { xml, report } = await written([[adminReview({ status: "removed" })], []]);
    expect(xml).not.toContain("<reviews>");
    expect(report.included).toBe(0);
    expect(checkProductReviewFeed(xml)).toEqual([]);
    expect(xmllint(xml)).toBe("");
  });

  it("stops adding reviews before the size limit and counts what it left out", async () => {
    const pages = [Array.from({ length: 20 }, () => adminReview())];
    const full = await written(pages);
    const limit = Math.floor(full.report.bytes / 2);
    const { xml, report } = await written(pages, limit);
    expect(report.bytes).toBeLessThanOrEqual(limit);
    expect(report.included + report.overSize).toBe(20);
    expect(report.overSize).toBeGreaterThan(0);
    expect(checkProductReviewFeed(xml)).toEqual([]);
  });

  it("reads the next page of the service only when the reader asks for more", async () => {
    const pages = [[adminReview()], [adminReview()], [adminReview()]];
    const { source, reads } = memorySource(pages, ALL);
    const chunks = writeFeed(source, opts)[Symbol.asyncIterator]();
    await chunks.next(); // head
    await chunks.next(); // first page
    expect(reads.pages).toBe(1);
    expect(reads.productQueries).toBe(1);
    await chunks.return(undefined);
  });

  it("GIVEN a page of long reviews THEN it is written in chunks of about 32 KB, together the same feed", async () => {
    const text = "Soft, warm and well made; ".repeat(80);
    const page = Array.from({ length: 100 }, () => adminReview({ text }));
    const chunks: string[] = [];
    for await (const c of writeFeed(memorySource([page], [PRODUCTS.tee]).source, {
      shop: feedShop(),
      publisherName: "s",
    }))
      chunks.push(c);
    const sizes = chunks.map((c) => Buffer.byteLength(c, "utf8"));
    expect(chunks.length).toBeGreaterThan(4);
    expect(Math.max(...sizes)).toBeLessThan(FEED_CHUNK_BYTES + 4 * 1024);
    const xml = chunks.join("");
    expect(xml.match(/<review>/g)).toHaveLength(100);
    expect(checkProductReviewFeed(xml)).toEqual([]);
  });
});
