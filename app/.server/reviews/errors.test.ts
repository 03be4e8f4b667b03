import { describe, expect, it } from "vitest";
import {
  DEFAULT_RETRY_AFTER_MS,
  ReviewsPermanentError,
  ReviewsRateLimitedError,
  ReviewsRetryableError,
  isTransient,
  parseRetryAfter,
} from "./errors";
import { retryIdempotentOnce } from "./retry";

const request = { api: "admin" as const, method: "GET", path: "/acme/reviews/all" };

describe("parseRetryAfter", () => {
  const now = Date.parse("2026-11-20T10:00:00Z");
  it.each([
    ["5", 5000],
    ["0", 0],
    ["1.5", 1500],
    ["Fri, 20 Nov 2026 10:00:30 GMT", 30_000],
    ["Fri, 20 Nov 2026 09:59:00 GMT", 0],
    [null, DEFAULT_RETRY_AFTER_MS],
    ["", DEFAULT_RETRY_AFTER_MS],
    ["soon", DEFAULT_RETRY_AFTER_MS],
  ])("%s → %i ms", (value, ms) => {
    expect(parseRetryAfter(value, now)).toBe(ms);
  });
});

describe("ReviewsError", () => {
  it("serialises kind, status, service fields and request, and names itself", () => {
    const err = new ReviewsPermanentError("Reviews service conflict", {
      request: { api: "admin", method: "POST", path: "/acme/products/groups" },
      status: 409,
      serviceMessage: "SKU in another group",
      reason: "conflict",
      conflictingSkus: ["A"],
    });
    expect(err.name).toBe("ReviewsPermanentError");
    expect(err.message).toBe('Reviews service conflict: POST /acme/products/groups → 409 "SKU in another group"');
    expect(JSON.parse(JSON.stringify(err))).toMatchObject({
      name: "ReviewsPermanentError",
      kind: "permanent",
      status: 409,
      reason: "conflict",
      conflictingSkus: ["A"],
      tooLarge: false,
      request: { method: "POST", path: "/acme/products/groups" },
    });
  });

  it("isTransient is true for retryable and rate-limited errors only", () => {
    expect(isTransient(new ReviewsRetryableError("x", { request, reason: "server", status: 503 }))).toBe(true);
    expect(isTransient(new ReviewsRateLimitedError("x", { request, retryAfterMs: 1 }))).toBe(true);
    expect(isTransient(new ReviewsPermanentError("x", { request, reason: "not_found" }))).toBe(false);
    expect(isTransient(new Error("x"))).toBe(false);
  });
});

describe("retryIdempotentOnce", () => {
  it("repeats once after a retryable error", async () => {
    let calls = 0;
    const result = await retryIdempotentOnce(
      async () => {
        calls += 1;
        if (calls === 1) throw new ReviewsRetryableError("x", { request, reason: "network" });
        return "ok";
      },
      { delayMs: 1 },
    );
    expect(result).toBe("ok");
    expect(calls).toBe(2);
  });

  it("does not loop: a second failure is thrown", async () => {
    let calls = 0;
    const fail = async () => {
      calls += 1;
      throw new ReviewsRetryableError("x", { request, reason: "server", status: 503 });
    };
    await expect(retryIdempotentOnce(fail, { delayMs: 1 })).rejects.toBeInstanceOf(ReviewsRetryableError);
    expect(calls).toBe(2);
  });

  it("waits out a short 429 but not a long one, and never retries permanent errors", async () => {
    let calls = 0;
    const limited = (ms: number) => async () => {
      calls += 1;
      if (calls === 1) throw new ReviewsRateLimitedError("x", { request, retryAfterMs: ms });
      return "ok";
    };
    await expect(retryIdempotentOnce(limited(5))).resolves.toBe("ok");
    calls = 0;
    await expect(retryIdempotentOnce(limited(60_000))).rejects.toBeInstanceOf(ReviewsRateLimitedError);
    calls = 0;
    const permanent = async () => {
      calls += 1;
      throw new ReviewsPermanentError("x", { request, reason: "bad_request", status: 400 });
    };
    await expect(retryIdempotentOnce(permanent)).rejects.toBeInstanceOf(ReviewsPermanentError);
    expect(calls).toBe(1);
  });
});
