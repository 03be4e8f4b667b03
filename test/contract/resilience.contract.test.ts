import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  type CatalogProduct,
  ReviewsAuthError,
  type ReviewsError,
  ReviewsPermanentError,
  ReviewsRateLimitedError,
  ReviewsRetryableError,
  createReviewsClient,
  memoryTokenCache,
  retryIdempotentOnce,
  tokenCacheKey,
} from "../../app/.server/reviews";
import { type ContractTarget, EMULATED, type EmulatorControl, clientFor, openTarget, uid, failure } from "./target";

// Authentication (admin-api.md "Authentication", "Errors") and every fault kind the client sorts:
// 401 refresh, refused credentials, 403, 5xx, 429 + Retry-After, timeouts, dropped connections.
// The fault cases need the emulator's /__emulator control API and are only defined when the suite
// runs against the emulator (see README.md).

let target: ContractTarget;

beforeAll(async () => {
  target = await openTarget();
});
afterAll(async () => {
  await target?.close();
});

const product = (): CatalogProduct => ({ sku: uid("lamp"), name: "Desk lamp", categories: ["Lighting"] });

describe("authentication", () => {
  it("issues a Bearer token for the account's credentials", async () => {
    const { expiresIn } = await clientFor(target.account).verifyCredentials();
    expect(expiresIn).toBeGreaterThan(0);
  });

  it("refuses wrong credentials: ReviewsAuthError token_refused, secret nowhere in the error", async () => {
    const wrongSecret = `wrong-${uid("secret")}`;
    const client = clientFor({ ...target.account, clientSecret: wrongSecret });
    const err = await failure(client.admin.sendCatalogBatch([product()]));
    expect(err).toBeInstanceOf(ReviewsAuthError);
    expect((err as ReviewsAuthError).reason).toBe("token_refused");
    expect([400, 401, 403]).toContain(err.status);
    expect(JSON.stringify(err)).not.toContain(wrongSecret);
    expect(String(err)).not.toContain(wrongSecret);
  });

  it("401 for an invalid token (batch and single product): the client drops it, fetches a new one, the call succeeds", async () => {
    const bogus = "not-a-token-the-service-issued";
    const key = tokenCacheKey(target.account);
    const cache = memoryTokenCache();
    const client = createReviewsClient({ account: target.account, tokenCache: cache });

    await cache.set(key, { token: bogus, expiresAt: Date.now() + 3_600_000 }, 3_600_000);
    await expect(client.admin.sendCatalogBatch([product()])).resolves.toMatchObject({ created: 1 });
    expect((await cache.get(key))?.token).not.toBe(bogus);

    await cache.set(key, { token: bogus, expiresAt: Date.now() + 3_600_000 }, 3_600_000);
    const sku = uid("lamp");
    await expect(client.admin.updateProduct(sku, { name: "Lamp", categories: ["Lighting"] })).resolves.toMatchObject({
      sku,
    });
    expect((await cache.get(key))?.token).not.toBe(bogus);
  });
});

if (EMULATED) {
  describe("faults (emulator)", () => {
    let control: EmulatorControl;
    beforeAll(() => {
      control = target.control!;
    });
    afterEach(async () => {
      await control.clearFaults();
    });

    const tokenRequests = (log: { method: string; path: string }[]) =>
      log.filter((r) => r.method === "POST" && r.path.endsWith("/oauth/token")).length;

    it("one token request serves many admin calls", async () => {
      const mark = await control.mark();
      const client = clientFor(target.account);
      await Promise.all([
        client.admin.sendCatalogBatch([product()]),
        client.admin.listReviews(),
        client.admin.listQuestions(),
      ]);
      await client.admin.getProductReport();
      const log = await control.requests(mark);
      expect(tokenRequests(log)).toBe(1);
      // The secret never reaches the emulator's request log in clear (it redacts), nor our paths.
      expect(JSON.stringify(log)).not.toContain(target.account.clientSecret);
    });

    it("expired tokens (expireTokensNow): one 401, one new token, the call repeated once", async () => {
      const client = clientFor(target.account);
      await client.admin.listReviews();
      await control.faults({ expireTokensNow: true });
      const mark = await control.mark();

      await expect(client.admin.sendCatalogBatch([product()])).resolves.toMatchObject({ created: 1 });

      const log = await control.requests(mark);
      expect(log.map((r) => [r.method, r.path.endsWith("/oauth/token") ? "token" : "batch", r.status])).toEqual([
        ["POST", "batch", 401],
        ["POST", "token", 200],
        ["POST", "batch", 200],
      ]);
    });

    it("401 again after the refresh → ReviewsAuthError, no third attempt", async () => {
      const client = clientFor(target.account);
      await client.admin.listReviews();
      await control.faults({ failNext: { count: 2, status: 401 }, paths: "^/api/" });
      const mark = await control.mark();

      const err = await failure(client.admin.listReviews());

      expect(err).toBeInstanceOf(ReviewsAuthError);
      expect((err as ReviewsAuthError).reason).toBe("unauthorized");
      const log = await control.requests(mark);
      expect(log.filter((r) => r.path.includes("/reviews/all"))).toHaveLength(2);
      expect(tokenRequests(log)).toBe(1);
    });

    it("403 when the token has no permission for the customer (batch and single product)", async () => {
      const other = { customer: uid("other-shop"), clientId: uid("other-client"), clientSecret: uid("other-secret") };
      await control.addAccount(other);
      // Credentials of another account, customer key of ours.
      const client = clientFor({ ...target.account, clientId: other.clientId, clientSecret: other.clientSecret });
      // Thunks, not promises: a rejection must not wait unobserved while the previous one is awaited.
      for (const call of [
        () => client.admin.sendCatalogBatch([product()]),
        () => client.admin.updateProduct(uid("lamp"), { name: "Lamp", categories: ["Lighting"] }),
      ]) {
        const err = await failure(call());
        expect(err).toBeInstanceOf(ReviewsPermanentError);
        expect(err.status).toBe(403);
        expect((err as ReviewsPermanentError).reason).toBe("forbidden");
      }
    });

    it.each([500, 503])("%i → ReviewsRetryableError (server)", async (status) => {
      await control.faults({ errorRate: 1, errorStatus: status as 500 | 503, paths: "^/api/" });
      const client = clientFor(target.account);
      for (const call of [() => client.admin.listReviews(), () => client.storefront.getTopRated()]) {
        const err = await failure(call());
        expect(err).toBeInstanceOf(ReviewsRetryableError);
        expect(err.status).toBe(status);
        expect((err as ReviewsRetryableError).reason).toBe("server");
      }
    });

    it("a 5xx on the token endpoint is retryable too", async () => {
      await control.faults({ failNext: { count: 1, status: 502 }, paths: "^/auth/" });
      const err = await failure(clientFor(target.account).admin.listReviews());
      expect(err).toBeInstanceOf(ReviewsRetryableError);
      expect(err.request.api).toBe("auth");
    });

    it("a catalog batch resent after a 5xx is safe (idempotent)", async () => {
      const client = clientFor(target.account);
      const items = [product(), product()];
      await control.faults({ failNext: { count: 1, status: 503 }, paths: "/products/batch$" });
      expect(await failure(client.admin.sendCatalogBatch(items))).toBeInstanceOf(ReviewsRetryableError);
      const first = await client.admin.sendCatalogBatch(items);
      const second = await client.admin.sendCatalogBatch(items);
      expect(first).toMatchObject({ created: 2, failed: 0 });
      expect(second).toMatchObject({ created: 0, unchanged: 2, failed: 0 });
    });

    it("429 with Retry-After → ReviewsRateLimitedError with retryAfterMs", async () => {
      await control.faults({ rateLimit: { count: 2, retryAfterSeconds: 7 }, paths: "^/api/" });
      const client = clientFor(target.account);
      const admin = await failure(client.admin.listReviews());
      expect(admin).toBeInstanceOf(ReviewsRateLimitedError);
      expect((admin as ReviewsRateLimitedError).retryAfterMs).toBe(7000);
      const storefront = await failure(client.storefront.getRatings([uid("lamp")]));
      expect((storefront as ReviewsRateLimitedError).retryAfterMs).toBe(7000);
    });

    it("latency beyond the client's timeout → ReviewsRetryableError (timeout)", async () => {
      await control.faults({ latencyMs: 2_000, paths: "^/api/" });
      const client = clientFor(target.account, { timeoutMs: 300 });
      const err = await failure(client.storefront.getTopRated());
      expect(err).toBeInstanceOf(ReviewsRetryableError);
      expect((err as ReviewsRetryableError).reason).toBe("timeout");
    });

    it("latency within the timeout is just slow", async () => {
      await control.faults({ latencyMs: 200, paths: "^/api/" });
      await expect(clientFor(target.account, { timeoutMs: 5_000 }).storefront.getTopRated()).resolves.toMatchObject({
        skus: expect.any(Array),
      });
    });

    it("a dropped connection → ReviewsRetryableError (network), on the API and on the token endpoint", async () => {
      await control.faults({ dropNext: 1, paths: "^/api/" });
      const api = await failure(clientFor(target.account).storefront.getTopRated());
      expect(api).toBeInstanceOf(ReviewsRetryableError);
      expect((api as ReviewsRetryableError).reason).toBe("network");

      await control.faults({ dropNext: 1, paths: "^/auth/" });
      const token = await failure(clientFor(target.account).admin.listReviews());
      expect((token as ReviewsRetryableError).reason).toBe("network");
      expect(token.request.api).toBe("auth");
    });

    it("retryIdempotentOnce rides out one transient failure of an admin GET", async () => {
      const client = clientFor(target.account);
      await client.admin.listReviews();
      await control.faults({ failNext: { count: 1, status: 503 }, paths: "/reviews/all$" });
      await expect(retryIdempotentOnce(() => client.admin.listReviews(), { delayMs: 10 })).resolves.toMatchObject({
        total: expect.any(Number),
      });
    });

    it("a share of failures (errorRate 0.5) fails every second call, each classified", async () => {
      await control.faults({ errorRate: 0.5, errorStatus: 503, paths: "^/api/" });
      const client = clientFor(target.account);
      const outcomes: string[] = [];
      for (let i = 0; i < 4; i++) {
        outcomes.push(
          await client.storefront.getTopRated().then(
            () => "ok",
            (e: ReviewsError) => e.kind,
          ),
        );
      }
      expect(outcomes).toEqual(["ok", "retryable", "ok", "retryable"]);
    });
  });
}
