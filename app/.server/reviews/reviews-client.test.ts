import { Writable } from "node:stream";
import { inspect } from "node:util";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import {
  ReviewsAuthError,
  ReviewsError,
  ReviewsPermanentError,
  ReviewsRateLimitedError,
  ReviewsResponseError,
  ReviewsRetryableError,
} from "./errors";
import {
  type Stub,
  type StubAnswer,
  type StubRequest,
  memoryLogger,
  startStub,
  tokenIssuer,
} from "./http-stub.testkit";
import { ADMIN_AUTH_HEADER, type ReviewsAccount } from "./client-options";
import { createReviewsClient } from "./reviews-client";
import { memoryTokenCache } from "./token-cache";

const SECRET = "s3cret-client-secret-value";

let stub: Stub | null = null;
afterEach(async () => {
  await stub?.close();
  stub = null;
});

function accountFor(origin: string): ReviewsAccount {
  return {
    customer: "acme-store",
    clientId: "client-123",
    clientSecret: SECRET,
    apiUrl: `${origin}/api`,
    authUrl: `${origin}/auth`,
    rateUrl: origin,
  };
}

/** A stub whose /auth/oauth/token issues numbered tokens and whose /api routes are scripted. */
async function service(
  api: (req: StubRequest) => StubAnswer | Promise<StubAnswer>,
  tokenOpts?: { expiresIn?: number },
) {
  const tokens = tokenIssuer(tokenOpts);
  stub = await startStub((req) => (req.path === "/auth/oauth/token" ? tokens.answer() : api(req)));
  return { stub, tokens };
}

const okBatch = { received: 1, processed: 1, created: 1, updated: 0, unchanged: 0, failed: 0, errors: [] };
const product = { sku: "P-1", name: "Mug", categories: ["Kitchen"] };

async function caught(p: Promise<unknown>): Promise<ReviewsError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ReviewsError);
    return e as ReviewsError;
  }
  throw new Error("expected the call to fail");
}

describe("admin token", () => {
  it("GIVEN a valid token WHEN two admin calls run THEN one token request is made and the token is sent as a bearer", async () => {
    const { stub, tokens } = await service(() => ({ status: 200, json: okBatch }));
    const client = createReviewsClient({ account: accountFor(stub.origin) });

    await client.admin.sendCatalogBatch([product]);
    await client.admin.sendCatalogBatch([product]);

    expect(tokens.issued).toBe(1);
    const apiCalls = stub.requests.filter((r) => r.path.startsWith("/api/"));
    expect(apiCalls).toHaveLength(2);
    for (const r of apiCalls) expect(r.headers[ADMIN_AUTH_HEADER.toLowerCase()]).toBe("Bearer token-1");
    const tokenReq = stub.requests.find((r) => r.path === "/auth/oauth/token")!;
    expect(JSON.parse(tokenReq.body)).toEqual({
      audience: `${stub.origin}/api`,
      grant_type: "client_credentials",
      client_id: "client-123",
      client_secret: SECRET,
    });
  });

  it("GIVEN concurrent first calls in one process THEN they share one token request", async () => {
    const { stub, tokens } = await service(() => ({ status: 200, json: okBatch }));
    const client = createReviewsClient({ account: accountFor(stub.origin) });
    await Promise.all(Array.from({ length: 5 }, () => client.admin.sendCatalogBatch([product])));
    expect(tokens.issued).toBe(1);
  });

  it("GIVEN a token close to expiry (10% or 60 s early) THEN the next call fetches a new one", async () => {
    const { stub, tokens } = await service(() => ({ status: 200, json: okBatch }), { expiresIn: 100 });
    let clock = 1_000_000;
    const now = () => clock;
    const client = createReviewsClient({
      account: accountFor(stub.origin),
      tokenCache: memoryTokenCache({ now }),
      now,
    });

    await client.admin.sendCatalogBatch([product]);
    clock += 89_000; // 100 s token, reused for 90 s
    await client.admin.sendCatalogBatch([product]);
    expect(tokens.issued).toBe(1);
    clock += 1_001;
    await client.admin.sendCatalogBatch([product]);
    expect(tokens.issued).toBe(2);
    expect(stub.requests.at(-1)!.headers.authorization).toBe("Bearer token-2");
  });

  it("GIVEN the service refuses a cached token with 401 THEN the client refreshes once and repeats the call once", async () => {
    let refused = false;
    const { stub, tokens } = await service((req) => {
      if (!refused && req.headers.authorization === "Bearer token-1") {
        refused = true;
        return { status: 401, json: { error: "unauthorized", message: "token expired" } };
      }
      return { status: 200, json: okBatch };
    });
    const client = createReviewsClient({ account: accountFor(stub.origin) });

    const result = await client.admin.sendCatalogBatch([product]);

    expect(result.created).toBe(1);
    expect(tokens.issued).toBe(2);
    expect(stub.count("/api/")).toBe(2);
    expect(stub.requests.at(-1)!.headers.authorization).toBe("Bearer token-2");
  });

  it("GIVEN the service answers 401 again after the refresh THEN ReviewsAuthError, without a third attempt", async () => {
    const { stub, tokens } = await service(() => ({ status: 401, json: { error: "unauthorized", message: "no" } }));
    const client = createReviewsClient({ account: accountFor(stub.origin) });

    const err = await caught(client.admin.listReviews());

    expect(err).toBeInstanceOf(ReviewsAuthError);
    expect(err.kind).toBe("auth");
    expect(err.status).toBe(401);
    expect(tokens.issued).toBe(2);
    expect(stub.count("/api/")).toBe(2);
  });

  it("GIVEN the token endpoint refuses the credentials THEN ReviewsAuthError token_refused, and nothing shows the secret", async () => {
    stub = await startStub(() => ({
      status: 401,
      // A service that echoes what it got must not leak the secret through us.
      json: { error: "access_denied", message: `Unauthorized client_secret ${SECRET}` },
    }));
    const { lines, logger } = memoryLogger();
    const client = createReviewsClient({ account: accountFor(stub.origin), logger });

    const err = await caught(client.admin.listReviews());

    expect(err).toBeInstanceOf(ReviewsAuthError);
    expect((err as ReviewsAuthError).reason).toBe("token_refused");
    expect(err.request).toEqual({ api: "auth", method: "POST", path: "/auth/oauth/token" });
    expect(err.serviceError).toBe("access_denied");
    for (const text of [
      String(err),
      err.message,
      JSON.stringify(err),
      inspect(err, { depth: 10 }),
      JSON.stringify(lines),
    ]) {
      expect(text).not.toContain(SECRET);
    }
  });

  it("verifyCredentials asks the token endpoint directly and reports the lifetime", async () => {
    const { stub, tokens } = await service(() => ({ status: 200, json: okBatch }), { expiresIn: 86400 });
    const client = createReviewsClient({ account: accountFor(stub.origin) });
    await expect(client.verifyCredentials()).resolves.toEqual({ expiresIn: 86400 });
    await expect(client.verifyCredentials()).resolves.toEqual({ expiresIn: 86400 });
    expect(tokens.issued).toBe(2);
  });
});

describe("error classification", () => {
  it("429 with Retry-After seconds → ReviewsRateLimitedError with retryAfterMs", async () => {
    const { stub } = await service(() => ({
      status: 429,
      headers: { "retry-after": "7" },
      json: { message: "slow down" },
    }));
    const err = await caught(createReviewsClient({ account: accountFor(stub.origin) }).admin.listReviews());
    expect(err).toBeInstanceOf(ReviewsRateLimitedError);
    expect((err as ReviewsRateLimitedError).retryAfterMs).toBe(7000);
    expect(err.serviceMessage).toBe("slow down");
  });

  it("429 with Retry-After as an HTTP date → the time until that date", async () => {
    const at = new Date(Date.now() + 30_000);
    const { stub } = await service(() => ({ status: 429, headers: { "retry-after": at.toUTCString() }, text: "" }));
    const err = await caught(createReviewsClient({ account: accountFor(stub.origin) }).storefront.getTopRated());
    expect(err).toBeInstanceOf(ReviewsRateLimitedError);
    const ms = (err as ReviewsRateLimitedError).retryAfterMs;
    // toUTCString drops milliseconds, and a little time passes before the header is read.
    expect(ms).toBeGreaterThan(27_000);
    expect(ms).toBeLessThanOrEqual(30_000);
  });

  it("429 without Retry-After → 1000 ms", async () => {
    const { stub } = await service(() => ({ status: 429, text: "Too Many Requests" }));
    const err = await caught(createReviewsClient({ account: accountFor(stub.origin) }).storefront.getTopRated());
    expect((err as ReviewsRateLimitedError).retryAfterMs).toBe(1000);
    expect(err.serviceMessage).toBe("Too Many Requests");
  });

  it.each([500, 502, 503, 504])("%i → ReviewsRetryableError (server)", async (status) => {
    const { stub } = await service(() => ({ status, text: "<html>upstream</html>" }));
    const err = await caught(createReviewsClient({ account: accountFor(stub.origin) }).admin.listQuestions());
    expect(err).toBeInstanceOf(ReviewsRetryableError);
    expect((err as ReviewsRetryableError).reason).toBe("server");
    expect(err.status).toBe(status);
  });

  it("a server that never answers → ReviewsRetryableError (timeout) after timeoutMs", async () => {
    const { stub } = await service(() => "hang");
    const client = createReviewsClient({ account: accountFor(stub.origin), timeoutMs: 150 });
    const started = performance.now();
    const err = await caught(client.admin.listReviews());
    expect(err).toBeInstanceOf(ReviewsRetryableError);
    expect((err as ReviewsRetryableError).reason).toBe("timeout");
    expect(err.status).toBeNull();
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("a token endpoint that never answers → timeout after tokenTimeoutMs", async () => {
    stub = await startStub(() => "hang");
    const client = createReviewsClient({ account: accountFor(stub.origin), tokenTimeoutMs: 150 });
    const err = await caught(client.admin.listReviews());
    expect((err as ReviewsRetryableError).reason).toBe("timeout");
    expect(err.request.api).toBe("auth");
  });

  it("a dropped connection → ReviewsRetryableError (network)", async () => {
    const { stub } = await service(() => "drop");
    const err = await caught(createReviewsClient({ account: accountFor(stub.origin) }).storefront.getRatings(["A"]));
    expect(err).toBeInstanceOf(ReviewsRetryableError);
    expect((err as ReviewsRetryableError).reason).toBe("network");
  });

  it("a fetch that throws (DNS, refused connection) → ReviewsRetryableError (network)", async () => {
    const client = createReviewsClient({
      account: accountFor("http://reviews.invalid"),
      fetch: async () => {
        throw new TypeError("fetch failed", {
          cause: Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" }),
        });
      },
    });
    const err = await caught(client.storefront.getTopRated());
    expect(err).toBeInstanceOf(ReviewsRetryableError);
    expect(err.cause).toMatchObject({ code: "ENOTFOUND" });
  });

  it("a caller's abort signal → ReviewsRetryableError (aborted)", async () => {
    const { stub } = await service(() => "hang");
    const controller = new AbortController();
    const p = createReviewsClient({ account: accountFor(stub.origin) }).storefront.getTopRated({
      signal: controller.signal,
    });
    controller.abort();
    const err = await caught(p);
    expect((err as ReviewsRetryableError).reason).toBe("aborted");
  });

  it("413 → ReviewsPermanentError with tooLarge", async () => {
    const { stub } = await service(() => ({
      status: 413,
      json: { error: "payload_too_large", message: "Body over 10 MB" },
    }));
    const err = await caught(
      createReviewsClient({ account: accountFor(stub.origin) }).admin.sendCatalogBatch([product]),
    );
    expect(err).toBeInstanceOf(ReviewsPermanentError);
    expect((err as ReviewsPermanentError).tooLarge).toBe(true);
    expect(err.serviceError).toBe("payload_too_large");
    expect(err.serviceMessage).toBe("Body over 10 MB");
  });

  it("409 on a group → ReviewsPermanentError with conflictingSkus", async () => {
    const { stub } = await service(() => ({
      status: 409,
      json: { message: "SKU already in a group", conflictingSkus: ["A", "B"] },
    }));
    const err = await caught(
      createReviewsClient({ account: accountFor(stub.origin) }).admin.createProductGroup({
        name: "G",
        skus: ["A", "B", "C"],
      }),
    );
    expect(err).toBeInstanceOf(ReviewsPermanentError);
    expect((err as ReviewsPermanentError).reason).toBe("conflict");
    expect((err as ReviewsPermanentError).conflictingSkus).toEqual(["A", "B"]);
  });

  it.each([
    [400, "bad_request"],
    [403, "forbidden"],
    [404, "not_found"],
    [422, "client_error"],
  ] as const)("%i → ReviewsPermanentError (%s)", async (status, reason) => {
    const { stub } = await service(() => ({ status, json: { error: "x", message: "y" } }));
    const err = await caught(
      createReviewsClient({ account: accountFor(stub.origin) }).admin.updateProduct("P-1", { name: "n" }),
    );
    expect(err).toBeInstanceOf(ReviewsPermanentError);
    expect((err as ReviewsPermanentError).reason).toBe(reason);
  });

  it("a response that does not match the schema → ReviewsResponseError, logged at warn", async () => {
    const { stub } = await service(() => ({ status: 200, json: { received: "one", extra: true } }));
    const { lines, logger } = memoryLogger();
    const err = await caught(
      createReviewsClient({ account: accountFor(stub.origin), logger }).admin.sendCatalogBatch([product]),
    );
    expect(err).toBeInstanceOf(ReviewsResponseError);
    expect((err as ReviewsResponseError).reason).toBe("schema_mismatch");
    expect((err as ReviewsResponseError).issues.join("\n")).toContain("received");
    expect(lines.some((l) => l.level === "warn")).toBe(true);
  });

  it("a 200 that is not JSON → ReviewsResponseError (invalid_json)", async () => {
    const { stub } = await service(() => ({ status: 200, text: "<html>login</html>" }));
    const err = await caught(createReviewsClient({ account: accountFor(stub.origin) }).storefront.getTopRated());
    expect((err as ReviewsResponseError).reason).toBe("invalid_json");
  });

  it("a redirect is not followed (it would carry the token elsewhere) → ReviewsResponseError", async () => {
    const { stub } = await service(() => ({ status: 302, headers: { location: "http://elsewhere.invalid/" } }));
    const err = await caught(createReviewsClient({ account: accountFor(stub.origin) }).admin.listReviews());
    expect(err).toBeInstanceOf(ReviewsResponseError);
    expect(err.status).toBe(302);
  });

  it("extra response fields are tolerated and kept", async () => {
    const { stub } = await service(() => ({ status: 200, json: { ...okBatch, batchId: "b-1" } }));
    const result = await createReviewsClient({ account: accountFor(stub.origin) }).admin.sendCatalogBatch([product]);
    expect(result).toMatchObject({ created: 1, batchId: "b-1" });
  });

  it("no error, log line or serialisation carries the token or the secret", async () => {
    let n = 0;
    const { stub } = await service((req) => {
      n += 1;
      // Echo the bearer back, as a careless service might.
      return n === 1
        ? { status: 401, json: { message: `bad ${req.headers.authorization}` } }
        : { status: 400, json: { error: `bad ${req.headers.authorization}`, message: SECRET } };
    });
    const { lines, logger } = memoryLogger();
    const err = await caught(
      createReviewsClient({ account: accountFor(stub.origin), logger }).admin.listReviews({ sku: "A" }),
    );
    expect(err.status).toBe(400);
    expect(err.request.path).toBe("/acme-store/reviews/all");
    for (const text of [
      String(err),
      err.stack ?? "",
      JSON.stringify(err),
      inspect(err, { depth: 10 }),
      JSON.stringify(lines),
    ]) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain("token-1");
      expect(text).not.toContain("token-2");
    }
    expect(lines.filter((l) => l.level === "debug").map((l) => l.obj)).toContainEqual(
      expect.objectContaining({ method: "GET", path: "/acme-store/reviews/all", status: 400 }),
    );
  });
});

describe("logging", () => {
  it("takes a pino logger: method, path, status and duration at debug, never the secret or a token", async () => {
    const { stub } = await service(() => ({ status: 200, json: okBatch }));
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = pino({ level: "debug" }, sink);
    await createReviewsClient({ account: accountFor(stub.origin), logger }).admin.sendCatalogBatch([product]);

    const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records).toContainEqual(
      expect.objectContaining({
        method: "POST",
        path: "/acme-store/products/batch",
        status: 200,
        durationMs: expect.any(Number),
      }),
    );
    expect(records).toContainEqual(expect.objectContaining({ method: "POST", path: "/auth/oauth/token", status: 200 }));
    expect(lines.join("")).not.toContain(SECRET);
    expect(lines.join("")).not.toContain("token-1");
  });
});

describe("order creation", () => {
  const order = { orderId: "1001", email: "buyer@example.com", status: "delivered" as const, items: [{ sku: "P-1" }] };

  it("v1 200 with no body → stored", async () => {
    const { stub } = await service(() => ({ status: 200, text: "" }));
    await expect(createReviewsClient({ account: accountFor(stub.origin) }).admin.createOrderV1(order)).resolves.toEqual(
      {
        outcome: "stored",
      },
    );
    expect(JSON.parse(stub.requests.at(-1)!.body)).toEqual(order);
  });

  it.each<[string, StubAnswer]>([
    ["409", { status: 409, json: { error: "conflict", message: "order exists" } }],
    ["200 saying duplicate", { status: 200, json: { message: "Duplicate order" } }],
    ["400 saying duplicate", { status: 400, json: { error: "duplicate_order", message: "exists" } }],
    ["400 saying already exists", { status: 400, text: "Order already exists" }],
  ])("v1 %s → duplicate", async (_name, answer) => {
    const { stub } = await service(() => answer);
    await expect(createReviewsClient({ account: accountFor(stub.origin) }).admin.createOrderV1(order)).resolves.toEqual(
      {
        outcome: "duplicate",
      },
    );
  });

  it("v1 400 for another reason → ReviewsPermanentError", async () => {
    const { stub } = await service(() => ({
      status: 400,
      json: { error: "invalid_request", message: "status: invalid" },
    }));
    const err = await caught(createReviewsClient({ account: accountFor(stub.origin) }).admin.createOrderV1(order));
    expect(err).toBeInstanceOf(ReviewsPermanentError);
  });

  it("v2 sends version 2 and returns the order record", async () => {
    const record = { _id: "o1", customer: "acme-store", orderId: "1001", status: "paid", __v: 0 };
    const { stub } = await service(() => ({ status: 200, json: record }));
    const result = await createReviewsClient({ account: accountFor(stub.origin) }).admin.createOrderV2({
      orderId: "1001",
      status: "paid",
      items: [{ productId: "P-1", sku: "P-1-RED", productData: { name: "Mug", categories: ["Kitchen"] } }],
    });
    expect(result).toMatchObject(record);
    expect(JSON.parse(stub.requests.at(-1)!.body)).toMatchObject({ version: 2, orderId: "1001" });
  });
});

describe("requests", () => {
  it("encodes path segments (SKUs with / # ? and spaces) and masks verification tokens in errors", async () => {
    const { stub } = await service((req) =>
      req.path.includes("/orders/")
        ? { status: 404, json: { message: "no" } }
        : { status: 200, json: { _id: "x", sku: "a/b#c?d e" } },
    );
    const client = createReviewsClient({ account: accountFor(stub.origin) });
    await client.admin.updateProduct("a/b#c?d e", { name: "N" });
    expect(stub.requests.at(-1)!.path).toBe("/api/acme-store/products/a%2Fb%23c%3Fd%20e");

    const err = await caught(client.storefront.getOrderReviewStatus("vtok-secret-123", "1001"));
    expect(stub.requests.at(-1)!.path).toBe("/api/acme-store/orders/vtok-secret-123/1001");
    expect(err.request.path).toBe("/acme-store/orders/***/1001");
    expect(JSON.stringify(err)).not.toContain("vtok-secret-123");
  });

  it("storefront calls carry no Authorization header and make no token request", async () => {
    const { stub, tokens } = await service(() => ({ status: 200, json: { skus: ["A"], badgeLabel: "Top" } }));
    await createReviewsClient({ account: accountFor(stub.origin) }).storefront.getTopRated();
    expect(tokens.issued).toBe(0);
    expect(stub.requests[0]!.headers.authorization).toBeUndefined();
  });

  it("serialises list queries: booleans, repeated categories, joined ratings/topics, the sort segment", async () => {
    const { stub } = await service((req) =>
      req.path.endsWith("/report")
        ? { status: 200, json: { result: [], total: 0 } }
        : { status: 200, json: { reviews: [] } },
    );
    const client = createReviewsClient({ account: accountFor(stub.origin) });
    await client.admin.getProductReport({ category: ["Kitchen", "Mugs"], onlyPublished: true, limit: 10 });
    const report = stub.requests.at(-1)!;
    expect(report.query.getAll("category")).toEqual(["Kitchen", "Mugs"]);
    expect(report.query.get("onlyPublished")).toBe("true");

    await client.storefront.getSummary("P-1", {
      sortField: "rating",
      sortOrder: "asc",
      pageSize: 20,
      rating: [4, 5],
      topics: ["fit", "size"],
    });
    const summary = stub.requests.at(-1)!;
    expect(summary.path).toBe("/api/acme-store/P-1/summary/rating,asc");
    expect(summary.query.get("rating")).toBe("4,5");
    expect(summary.query.get("topics")).toBe("fit;size");
    expect(summary.query.get("pageSize")).toBe("20");
  });

  it("refuses invalid input before any request (permanent, invalid_request)", async () => {
    const { stub } = await service(() => ({ status: 200, json: okBatch }));
    const client = createReviewsClient({ account: accountFor(stub.origin) });
    const tooMany = Array.from({ length: 201 }, (_, i) => ({ sku: `S-${i}` }));
    for (const call of [
      () => client.admin.sendCatalogBatch([]),
      () => client.admin.sendCatalogBatch(tooMany),
      () => client.admin.listReviews({ rating: 6 }),
      () =>
        client.storefront.findOrdersBatch({
          orderIds: Array.from({ length: 21 }, (_, i) => String(i)),
          email: "a@b.c",
        }),
      () => client.storefront.submitReview("P-1", { rating: 5, verificationTokenId: "t" }),
      () => client.storefront.getRatings([]),
      () => client.admin.updateProduct("..", { name: "x" }),
    ]) {
      const err = await caught(call());
      expect(err).toBeInstanceOf(ReviewsPermanentError);
      expect((err as ReviewsPermanentError).reason).toBe("invalid_request");
    }
    expect(stub.requests).toHaveLength(0);
  });

  it("refuses a catalog batch over 10 MB as tooLarge before sending it", async () => {
    const { stub } = await service(() => ({ status: 200, json: okBatch }));
    const big = Array.from({ length: 200 }, (_, i) => ({ sku: `S-${i}`, description: "x".repeat(60_000) }));
    const err = await caught(createReviewsClient({ account: accountFor(stub.origin) }).admin.sendCatalogBatch(big));
    expect((err as ReviewsPermanentError).tooLarge).toBe(true);
    expect(stub.requests).toHaveLength(0);
  });

  it("with validateRequests false, invalid input reaches the service (to probe its answers)", async () => {
    const { stub } = await service(() => ({
      status: 400,
      json: { error: "invalid_request", message: "products: empty" },
    }));
    const client = createReviewsClient({ account: accountFor(stub.origin), validateRequests: false });
    const err = await caught(client.admin.sendCatalogBatch([]));
    expect(err.status).toBe(400);
    expect(JSON.parse(stub.requests.at(-1)!.body)).toEqual({ products: [] });
  });
});

describe("response normalisation", () => {
  it.each(["result", "results"])("NPS responses named `%s` come back as `results`", async (field) => {
    const row = { _id: "n1", rating: 9, partial: false };
    const { stub } = await service(() => ({ status: 200, json: { [field]: [row], total: 1 } }));
    const list = await createReviewsClient({ account: accountFor(stub.origin) }).admin.listNpsResponses({
      type: "promoters",
    });
    expect(list).toEqual({ results: [row], total: 1 });
  });

  it("NPS responses with neither array → ReviewsResponseError", async () => {
    const { stub } = await service(() => ({ status: 200, json: { total: 1 } }));
    const err = await caught(createReviewsClient({ account: accountFor(stub.origin) }).admin.listNpsResponses());
    expect(err).toBeInstanceOf(ReviewsResponseError);
  });

  it("batch errors without a SKU come back with sku null", async () => {
    const { stub } = await service(() => ({
      status: 200,
      json: { ...okBatch, created: 0, failed: 1, errors: [{ index: 0, error: "sku is required" }] },
    }));
    const result = await createReviewsClient({
      account: accountFor(stub.origin),
      validateRequests: false,
    }).admin.sendCatalogBatch([{ sku: "" }]);
    expect(result.errors).toEqual([{ index: 0, sku: null, error: "sku is required" }]);
  });

  it("'not shown' bodies (confirm, attributes, question) are returned as parsed JSON, text or null", async () => {
    let answer: StubAnswer = { status: 200, json: { ok: true } };
    const { stub } = await service(() => answer);
    const client = createReviewsClient({ account: accountFor(stub.origin) });
    await expect(
      client.storefront.askQuestion("P-1", { userId: "u", email: "e@x.io", text: "Is it big?" }),
    ).resolves.toEqual({ ok: true });
    answer = { status: 200, text: "" };
    await expect(client.storefront.confirmVideo("P-1", "r1", { updateToken: "t", key: "k" })).resolves.toBeNull();
    answer = { status: 201, text: "OK" };
    await expect(
      client.storefront.sendAttributes("P-1", "r1", { updateToken: "t", attributes: [{ _id: "a", value: 4 }] }),
    ).resolves.toBe("OK");
  });
});

describe("ratePageUrl", () => {
  it("builds the rating page URL with optional parameters", () => {
    const client = createReviewsClient({ account: accountFor("https://rate.example.com") });
    expect(client.ratePageUrl({ verificationTokenId: "vt 1", orderId: "#1001" })).toBe(
      "https://rate.example.com/rate/acme-store/vt%201/%231001",
    );
    expect(
      client.ratePageUrl({
        verificationTokenId: "vt",
        orderId: "1",
        sku: "A/B",
        ratingClicked: 5,
        embedded: true,
        source: "email",
      }),
    ).toBe("https://rate.example.com/rate/acme-store/vt/1?sku=A%2FB&ratingClicked=5&embedded=1&source=email");
  });

  it("refuses a rating outside 1..5", () => {
    const client = createReviewsClient({ account: accountFor("https://rate.example.com") });
    expect(() => client.ratePageUrl({ verificationTokenId: "vt", orderId: "1", ratingClicked: 6 })).toThrow(
      ReviewsPermanentError,
    );
  });
});
