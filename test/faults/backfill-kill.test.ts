import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../helpers/contexts";
import { OrderBook, ordersModule, startSimulatedStore, type SimulatedStore } from "../../sandbox/simulated-store";
import type { StoredOrder } from "../../sandbox/emulator/types";
import { parseProgress, type SyncKind } from "../../app/.server/sync/sync-runs.repository";
import { SAVE_EVERY } from "../../app/.server/orders/orders-sync";
import { startWebStack, type Customer, type WebStack } from "./web-stack";
import { killMidRequest, postsTo } from "./mid-request";
import { startRun } from "./bulk-runs";

// The 60-day orders backfill with its worker process SIGKILLed while an order is on the wire, then
// finished by a new worker process. The same store is backfilled for a second shop by a run nobody
// interrupts: that run is the reference for what the service must end up holding. The killed
// order's connection is dropped by the emulator (the service never got it), so it must be sent
// again; every order accepted before the kill must not be.

const KILLED_SHOP = "backfill-killed.myshopify.com"; // account acme
const REFERENCE_SHOP = "backfill-reference.myshopify.com"; // account bravo
const PRIMARY_DOMAIN = "https://backfill.example.com";
const book = new OrderBook({ seed: 21, count: 150, productCount: 12 });

/** Process start, stall detection (WORKER_LOCK_MS) and the rest of the work, on two busy cores. */
const RECOVERY_BOUND_MS = 30_000;

let s: WebStack;
let store: SimulatedStore;
const shops: Record<Customer, string> = { acme: "", bravo: "" };
const domains: Record<Customer, string> = { acme: KILLED_SHOP, bravo: REFERENCE_SHOP };

beforeAll(async () => {
  store = await startSimulatedStore({
    shop: KILLED_SHOP,
    products: 12,
    seed: 21,
    bulkDurationMs: 50,
    modules: [ordersModule(book)],
  });
  s = await startWebStack("backfill-kill", { SHOPIFY_ORIGIN: store.origin });
  for (const customer of ["acme", "bravo"] as const) {
    shops[customer] = await s.connect(domains[customer], customer, store);
    // Product URLs in the orders' productData are built on it: the same for both shops.
    await s.web.shops.setPrimaryDomain(domains[customer], PRIMARY_DOMAIN);
  }
});
afterAll(async () => {
  await s?.close();
  await store?.close();
});

const ordersPath = (customer: Customer) => `/api/${customer}/orders`;
const acceptedIds = (customer: Customer, since = 0, before = Infinity) =>
  postsTo(s.emu, ordersPath(customer), since)
    .filter((r) => r.status === 200 && r.seq < before)
    .map((r) => (r.body as { orderId: string }).orderId);

async function finished(runId: string) {
  const run = await eventually(
    () => s.t.db.syncRun.findUniqueOrThrow({ where: { id: runId } }),
    (r) => ["completed", "failed", "cancelled"].includes(r.status),
    60_000,
  );
  expect(run.error).toBeNull();
  expect(run.status).toBe("completed");
  return run;
}

const start = (customer: Customer, kind: SyncKind) =>
  startRun(s, store, { id: shops[customer], domain: domains[customer] }, kind);

/** What the service holds of an order, without what it assigns itself or what names the account. */
function held(o: StoredOrder) {
  const {
    _id: _id,
    customer: _customer,
    verificationTokenId: _token,
    created: _created,
    updated: _updated,
    ...rest
  } = o;
  return rest;
}

describe("orders backfill, worker killed mid-run", () => {
  it("GIVEN the backfill's worker SIGKILLed with an order on the wire THEN a new worker completes the run; every order is upstream once, as the uninterrupted run left it, and none accepted before the kill is sent again", async () => {
    const first = await s.startWorker();
    // Connected shops have their catalog first, so every order carries its products' data.
    await Promise.all((["acme", "bravo"] as const).map(async (c) => finished((await start(c, "catalog")).id)));

    const reference = await finished((await start("bravo", "orders")).id);
    const expected = acceptedIds("bravo");
    expect(expected.length).toBeGreaterThan(60);

    const since = s.emu.control.lastRequestSeq();
    s.emu.control.setFaults({ latencyMs: 300, paths: `^${ordersPath("acme")}$` });
    const run = await start("acme", "orders");
    const inFlight = await killMidRequest(s.emu, ordersPath("acme"), { since, accepted: 15, kill: () => first.kill() });
    const inFlightId = (inFlight.body as { orderId: string }).orderId;
    const acceptedBefore = acceptedIds("acme", since, inFlight.seq);

    // The checkpoint trails the accepted orders by less than one save interval.
    const killed = await s.t.db.syncRun.findUniqueOrThrow({ where: { id: run.id } });
    expect(killed.status).toBe("reading");
    expect(killed.resumeAt).toBeGreaterThan(0);
    const sentAtKill = parseProgress(killed.progress).sent;
    expect(sentAtKill).toBeLessThanOrEqual(acceptedBefore.length);
    expect(sentAtKill).toBeGreaterThan(acceptedBefore.length - SAVE_EVERY);

    const restarted = performance.now();
    const second = await s.startWorker();
    const done = await finished(run.id).catch((error: Error) => {
      throw new Error(`${error.message}\nsecond worker:\n${second.tail()}`);
    });
    const recoveryMs = performance.now() - restarted;
    // The killed worker's locks (send, order) lapse with its job locks, not after a fixed minute.
    expect(recoveryMs).toBeLessThan(RECOVERY_BOUND_MS);

    // On the wire: after the kill, the lost order and the ones never sent, each once; nothing
    // accepted before the kill again.
    const after = acceptedIds("acme", inFlight.seq);
    expect(after.filter((id) => acceptedBefore.includes(id))).toEqual([]);
    expect(after).toContain(inFlightId);
    expect([...acceptedBefore, ...after].sort()).toEqual([...expected].sort());
    // Progress reads every order once. The orders the killed worker sent after its last checkpoint
    // are read again by the new one, found unchanged and counted so: fewer than SAVE_EVERY move
    // from "sent" to "unchanged" in the run's figures (the service got each of them once, above).
    const progress = parseProgress(done.progress);
    const uninterrupted = parseProgress(reference.progress);
    expect(progress).toMatchObject({ read: uninterrupted.read, updated: 0, failed: 0 });
    expect(progress.sent + progress.unchanged).toBe(uninterrupted.sent + uninterrupted.unchanged);
    expect(uninterrupted.sent - progress.sent).toBe(acceptedBefore.length - sentAtKill);

    // Upstream: the same orders in the same state as the reference run left them, each written once.
    const killedOrders = new Map(s.emu.control.state("acme").orders.map((o) => [o.orderId, held(o)]));
    const referenceOrders = new Map(s.emu.control.state("bravo").orders.map((o) => [o.orderId, held(o)]));
    expect([...killedOrders.keys()].sort()).toEqual([...referenceOrders.keys()].sort());
    for (const [id, order] of referenceOrders) expect(killedOrders.get(id)).toEqual(order);
    // And the app's own record of each order agrees.
    const states = async (c: Customer) =>
      new Map(
        (await s.t.db.orderState.findMany({ where: { shopId: shops[c] } })).map((o) => [
          o.orderId,
          { status: o.status, fingerprint: o.fingerprint },
        ]),
      );
    expect(await states("acme")).toEqual(await states("bravo"));

    console.log(
      `[backfill-kill] ${expected.length} orders: ${acceptedBefore.length} accepted before the kill (checkpoint at ${killed.resumeAt} read, ${sentAtKill} sent), ${after.length} after; run completed ${Math.round(recoveryMs)} ms after the new worker started`,
    );
    await second.stop();
  }, 150_000);
});
