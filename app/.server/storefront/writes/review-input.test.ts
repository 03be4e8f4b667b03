import { describe, expect, it } from "vitest";
import { parseReviewInput, REVIEW_TEXT_MAX } from "./review-input";

describe("parseReviewInput", () => {
  it("GIVEN a rating, text and a recommendation THEN they are kept, trimmed", () => {
    expect(parseReviewInput({ rating: 4, text: "  Fits well.\r\nGood fabric. ", recommended: "yes" })).toEqual({
      ok: true,
      input: { rating: 4, text: "Fits well.\nGood fabric.", recommended: true, trap: false },
    });
  });

  it.each([0, 6, 3.5, "x", null])("GIVEN rating %s THEN it is refused with the rating code", (rating) => {
    expect(parseReviewInput({ rating, text: "ok" })).toEqual({ ok: false, errors: { rating: "rating" } });
  });

  it.each(["<script>alert(1)</script>", "nice <b>bold</b>", "<img src=x onerror=alert(1)>", "a &lt; b", "&#60;"])(
    "GIVEN markup %j THEN the text is refused, not changed",
    (t) => {
      expect(parseReviewInput({ rating: 5, text: t })).toEqual({ ok: false, errors: { text: "markup" } });
    },
  );

  it("GIVEN angle brackets that are not markup THEN the text is kept as written", () => {
    const r = parseReviewInput({ rating: 5, text: "5 < 6 and 7 > 3 :-> <3" });
    expect(r.ok && r.input.text).toBe("5 < 6 and 7 > 3 :-> <3");
  });

  it("GIVEN text over the limit THEN too_long", () => {
    expect(parseReviewInput({ rating: 5, text: "a".repeat(REVIEW_TEXT_MAX + 1) })).toEqual({
      ok: false,
      errors: { text: "too_long" },
    });
  });

  it("GIVEN an order number and e-mail THEN a purchase to verify; a bad number or e-mail is named", () => {
    expect(parseReviewInput({ rating: 5, orderNumber: "#1001", email: "buyer@example.com" })).toMatchObject({
      ok: true,
      input: { order: { number: "#1001", email: "buyer@example.com" } },
    });
    expect(parseReviewInput({ rating: 5, orderNumber: "abc", email: "nope" })).toEqual({
      ok: false,
      errors: { orderNumber: "order_number", email: "email" },
    });
    expect(parseReviewInput({ rating: 5, orderNumber: "1001" })).toEqual({ ok: false, errors: { email: "required" } });
  });

  it("GIVEN the honeypot filled THEN the input is marked as a trap", () => {
    expect(parseReviewInput({ rating: 5, website: "http://spam.example" })).toMatchObject({
      ok: true,
      input: { trap: true },
    });
  });

  it("GIVEN identity fields from the browser THEN they are not part of the input", () => {
    const r = parseReviewInput({ rating: 5, userId: "999", customerId: "999", verificationTokenId: "t", name: "x" });
    expect(r).toEqual({ ok: true, input: { rating: 5, text: "", recommended: undefined, trap: false } });
  });
});
