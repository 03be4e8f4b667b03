import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AdminReview } from "../reviews";
import { NEGATIVE_REVIEW, REVIEW_PUBLISHED, triggerPayload, triggersFor } from "./flow-triggers";
import { REVIEW_COLLECTED } from "./review-collected";

// Which reviews start which Flow trigger, and that the payload carries exactly the fields the
// extensions declare (Flow refuses a payload key its trigger does not declare).

const review = (over: Partial<AdminReview>): AdminReview =>
  ({
    _id: "r1",
    sku: "8100000000007",
    rating: 5,
    status: "published",
    name: "Jane D.",
    text: "Lovely",
    moderatedAt: "2026-11-01T10:00:00.000Z",
    ...over,
  }) as AdminReview;

function declaredKeys(handle: string): string[] {
  const toml = readFileSync(join(process.cwd(), "extensions", handle, "shopify.extension.toml"), "utf8");
  expect(toml).toMatch(new RegExp(`^handle = "${handle}"$`, "m"));
  expect(toml).toMatch(/^type = "flow_trigger"$/m);
  const keys = [...toml.matchAll(/^\s*key = "([^"]+)"$/gm)].map((m) => m[1]);
  const references = [...toml.matchAll(/^\s*type = "(\w+)_reference"$/gm)].map((m) => `${m[1]}_id`);
  return [...references, ...keys];
}

describe("Flow triggers", () => {
  it("GIVEN the changes of a feed read THEN published reviews start review-published, low ratings (published or rejected) negative-review-received, oldest first", () => {
    const changes = [
      review({ _id: "new-low", rating: 2, moderatedAt: "2026-11-03T00:00:00.000Z" }),
      review({ _id: "rejected-low", rating: 1, status: "removed", moderatedAt: "2026-11-02T00:00:00.000Z" }),
      review({ _id: "rejected-high", rating: 5, status: "removed", moderatedAt: "2026-11-02T00:00:00.000Z" }),
      review({ _id: "old-high", rating: 4, moderatedAt: "2026-11-01T00:00:00.000Z" }),
      review({ _id: "three", rating: 3 }),
    ];
    expect(triggersFor(changes, 2).map((c) => `${c.handle}:${c.reviewId}`)).toEqual([
      `${REVIEW_PUBLISHED}:three`,
      `${REVIEW_PUBLISHED}:old-high`,
      `${NEGATIVE_REVIEW}:rejected-low`,
      `${REVIEW_PUBLISHED}:new-low`,
      `${NEGATIVE_REVIEW}:new-low`,
    ]);
    // The shop's threshold moves the line.
    expect(triggersFor([review({ _id: "three", rating: 3 })], 3).map((c) => c.handle)).toEqual([
      REVIEW_PUBLISHED,
      NEGATIVE_REVIEW,
    ]);
  });

  it.each([REVIEW_PUBLISHED, NEGATIVE_REVIEW, REVIEW_COLLECTED])(
    "GIVEN the %s extension THEN the payload has exactly its declared fields",
    (handle) => {
      expect(Object.keys(triggerPayload(review({})))).toEqual(declaredKeys(handle));
      // Flow keys are letters and spaces only.
      for (const key of declaredKeys(handle)) expect(key).toMatch(/^[A-Za-z\s]+$|^\w+_id$/);
    },
  );

  it("GIVEN a very long review text THEN the payload stays under Flow's 50,000 bytes", () => {
    const payload = triggerPayload(review({ text: "é".repeat(60_000) }));
    expect(Buffer.byteLength(JSON.stringify(payload))).toBeLessThan(50_000);
    expect(String(payload["Review text"]).endsWith("…")).toBe(true);
  });
});
