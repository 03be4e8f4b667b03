import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { call, issueToken, product, setup } from "./harness";
import { shareHit } from "./faults";

let t: Awaited<ReturnType<typeof setup>>;
beforeAll(async () => {
  t = await setup();
});
afterEach(async () => {
  await call(`${t.emu.origin}/__emulator/faults`, { method: "DELETE" });
});
afterAll(() => t.emu.close());

const setFaults = async (body: unknown) => {
  const res = await call(`${t.emu.origin}/__emulator/faults`, { body });
  expect(res.status).toBe(200);
};
const ratings = () => call(`${t.emu.baseUrl}/demo-store/ratings?skus=x`);
const statuses = async (n: number) => {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await ratings()).status);
  return out;
};
const outcome = (p: Promise<unknown>) =>
  p.then(
    () => "ok",
    () => "dropped",
  );

describe("faults", () => {
  it("shares are deterministic counters", () => {
    expect([1, 2, 3, 4].map((n) => shareHit(n, 0.5))).toEqual([false, true, false, true]);
    expect([1, 2, 3, 4, 5, 6, 7, 8].filter((n) => shareHit(n, 0.25))).toEqual([4, 8]);
    expect(shareHit(1, 1)).toBe(true);
    expect(shareHit(1, 0)).toBe(false);
  });

  it("latencyMs delays answers on the service paths, not on /__emulator", async () => {
    await setFaults({ latencyMs: 150 });
    const started = performance.now();
    expect((await ratings()).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    const control = performance.now();
    await call(`${t.emu.origin}/__emulator/health`);
    expect(performance.now() - control).toBeLessThan(140);
  });

  it("errorRate with errorStatus answers that share of requests with 5xx", async () => {
    await setFaults({ errorRate: 0.5, errorStatus: 503 });
    expect(await statuses(4)).toEqual([200, 503, 200, 503]);
    await setFaults({ errorRate: 1 });
    const res = await ratings();
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: "internal_error", message: expect.any(String) });
  });

  it("rateLimit.every answers every Nth request with 429 and Retry-After", async () => {
    await setFaults({ rateLimit: { every: 3, retryAfterSeconds: 2 } });
    expect(await statuses(6)).toEqual([200, 200, 429, 200, 200, 429]);
    await setFaults({ rateLimit: { every: 1, retryAfterSeconds: 2 } });
    const res = await ratings();
    expect(res.headers.get("retry-after")).toBe("2");
    expect(res.body.error).toBe("rate_limited");
  });

  it("rateLimit.count answers the next N requests with 429", async () => {
    await setFaults({ rateLimit: { count: 2, retryAfterSeconds: 1 } });
    expect(await statuses(3)).toEqual([429, 429, 200]);
  });

  it("dropNext and dropRate destroy connections without an answer, and log them with status 0", async () => {
    await setFaults({ dropNext: 1 });
    const since = t.emu.control.lastRequestSeq();
    expect(await outcome(ratings())).toBe("dropped");
    expect(await outcome(ratings())).toBe("ok");
    const log = t.emu.control.requests(since);
    expect(log.map((e) => [e.status, e.fault ?? null])).toEqual([
      [0, "drop"],
      [200, null],
    ]);
    await setFaults({ dropRate: 0.5 });
    expect([
      await outcome(ratings()),
      await outcome(ratings()),
      await outcome(ratings()),
      await outcome(ratings()),
    ]).toEqual(["ok", "dropped", "ok", "dropped"]);
  });

  it("loseAnswerNext handles the request (its effect is stored) and closes the connection instead of answering", async () => {
    // A product to ask about (the catalog batch endpoint needs no fault to pass).
    const sku = "lose-1";
    expect((await t.admin("POST", "/products/batch", { products: [product(sku)] })).status).toBe(200);
    const questions = () => t.emu.control.state("demo-store").questions.length;
    const before = questions();
    await setFaults({ loseAnswerNext: 1, paths: "/question$" });
    const since = t.emu.control.lastRequestSeq();
    const ask = () =>
      call(`${t.emu.baseUrl}/demo-store/${sku}/question`, {
        body: { userId: "u1", email: "u1@example.com", text: "Does it fit?" },
      });
    expect(await outcome(ask())).toBe("dropped");
    expect(questions()).toBe(before + 1);
    expect(await outcome(ask())).toBe("ok");
    expect(questions()).toBe(before + 2);
    expect(t.emu.control.requests(since).map((e) => [e.status, e.fault ?? null])).toEqual([
      [0, "lose-answer"],
      [200, null],
    ]);
  });

  it("failNext answers the next N requests with the given status", async () => {
    await setFaults({ failNext: { count: 2, status: 502 } });
    expect(await statuses(3)).toEqual([502, 502, 200]);
    const state = await call(`${t.emu.origin}/__emulator/faults`);
    expect(state.body.remaining.failNext).toBe(0);
  });

  it("paths restricts faults to matching paths; the token endpoint is covered by default; /__emulator never", async () => {
    await setFaults({ errorRate: 1, paths: "/ratings$" });
    expect((await ratings()).status).toBe(500);
    expect((await call(`${t.emu.baseUrl}/demo-store/x/summary`)).status).toBe(200);
    await setFaults({ errorRate: 1 });
    const token = await call(`${t.emu.authUrl}/oauth/token`, { body: {} });
    expect(token.status).toBe(500);
    expect((await call(`${t.emu.origin}/__emulator/requests`)).status).toBe(200);
    expect((await call(`${t.emu.origin}/__emulator/faults`, { body: { errorRate: 2 } })).status).toBe(400);
    expect((await call(`${t.emu.origin}/__emulator/faults`, { body: { paths: "(" } })).status).toBe(400);
  });

  it("DELETE /__emulator/faults clears every fault", async () => {
    await setFaults({ errorRate: 1, latencyMs: 10 });
    await call(`${t.emu.origin}/__emulator/faults`, { method: "DELETE" });
    expect(await statuses(2)).toEqual([200, 200]);
  });

  it("expireTokensNow expires every issued token", async () => {
    const token = await issueToken(t.emu);
    await setFaults({ expireTokensNow: true });
    expect((await call(`${t.emu.baseUrl}/demo-store/reviews/all`, { token })).status).toBe(401);
  });
});
