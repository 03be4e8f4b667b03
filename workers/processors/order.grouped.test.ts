import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../../test/helpers/stack";
import { eventually } from "../../test/helpers/contexts";
import { orderPayload } from "../../test/helpers/order-payloads";
import { startSimulatedStore, type SimCustomerConsent, type SimulatedStore } from "../../sandbox/simulated-store";
import { createOrderStateRepository, orderStateGroupStats } from "../../app/.server/orders/order-state.repository";
import { seedOfflineSession } from "../../test/helpers/offline-session";

// The order path in groups, on real parts: many order deliveries at once, so the worker's
// concurrent jobs read their order states and their buyers' consent in shared queries and write
// their states in shared transactions (db/group-commit.ts). What each order ends with upstream is
// what it would have been one at a time: the newest form of each order, each buyer's opt-outs,
// each new buyer's consent read once.

type Json = Record<string, unknown>;
const SHOP = "orders-grouped.myshopify.com";
const customerOf = JSON.parse(readFileSync("test/fixtures/orders/paid-web-customer.json", "utf8")).customer as Json;
let s: Stack;
let store: SimulatedStore;
let shopId: string;

const order = (id: number, customerId: number, patch: Json = {}) =>
  orderPayload(id, {
    customer: { ...customerOf, id: customerId, admin_graphql_api_id: `gid://shopify/Customer/${customerId}` },
    ...patch,
  });

const consentOf = (customerId: number, email: string, sms: string, whatsapp: string): SimCustomerConsent => ({
  customerId,
  email: "avery.johnson@example.com",
  phone: "+12125550134",
  channels: {
    email: { state: email as never, updatedAt: "2026-10-01T10:00:00Z" },
    sms: { state: sms as never, updatedAt: "2026-10-01T10:00:00Z" },
    whatsapp: { state: whatsapp as never, updatedAt: "2026-10-01T10:00:00Z" },
  },
});

const upstream = (orderId: number) => s.emu.control.state("acme").orders.find((o) => o.orderId === String(orderId));

async function deliver(topic: string, payload: unknown, webhookId: string) {
  expect((await s.deliver(topic, SHOP, payload, { webhookId })).status).toBe(200);
  const row = await eventually(
    () => s.t.db.webhookDelivery.findUnique({ where: { id: webhookId } }),
    (r) => r?.status === "done" || r?.status === "failed",
  );
  return row!.status;
}

beforeAll(async () => {
  store = await startSimulatedStore({ shop: SHOP });
  s = await startStack("orders-grouped", { SHOPIFY_ORIGIN: store.originTemplate, ORDER_TRACKING_GRACE_MS: "0" });
  await s.connect(SHOP);
  await seedOfflineSession(s.t.db, store, { shop: SHOP });
  shopId = (await s.web.shops.get(SHOP)).id;
});
afterAll(async () => {
  await s?.close();
  await store?.close();
});

describe("order deliveries applied in groups", () => {
  const ANA = 7412345610001;
  const BEN = 7412345610002;
  const orders = Array.from({ length: 12 }, (_, i) => ({ id: 5923018500001 + i, customer: i % 2 ? BEN : ANA }));
  const OLDER = "2026-11-20T10:00:00.250-05:00";
  const NEWER = "2026-11-20T10:00:00.750-05:00";

  it("GIVEN two forms of twelve orders of two new buyers delivered at once, the newer first THEN each order upstream is its newer form with its buyer's opt-outs, and each buyer's consent is read once", async () => {
    // Ana has unsubscribed from SMS; Ben takes every channel.
    store.setCustomerConsent(consentOf(ANA, "SUBSCRIBED", "UNSUBSCRIBED", "SUBSCRIBED"));
    store.setCustomerConsent(consentOf(BEN, "SUBSCRIBED", "SUBSCRIBED", "SUBSCRIBED"));
    const reads = store.operationCount("CustomerConsent");
    const before = orderStateGroupStats(s.t.db);

    const outcomes = await Promise.all(
      orders.flatMap((o) => [
        deliver("orders/paid", order(o.id, o.customer, { updated_at: NEWER }), `paid-${o.id}`),
        deliver(
          "orders/create",
          order(o.id, o.customer, { financial_status: "pending", updated_at: OLDER }),
          `create-${o.id}`,
        ),
      ]),
    );
    expect(outcomes.every((status) => status === "done")).toBe(true);

    const states = createOrderStateRepository(s.t.db);
    for (const o of orders) {
      expect(upstream(o.id)).toMatchObject({
        status: "paid",
        optOutEmail: false,
        optOutSMS: o.customer === ANA,
        optOutWhatsApp: false,
      });
      expect((await states.get(shopId, String(o.id)))?.sentUpdatedAt).toEqual(new Date(NEWER));
    }
    expect(store.operationCount("CustomerConsent") - reads).toBe(2);
    // Every one of them went through the groups.
    const after = orderStateGroupStats(s.t.db);
    expect(after.reads.requests - before.reads.requests).toBeGreaterThanOrEqual(orders.length * 2);
    expect(after.saves.requests - before.saves.requests).toBeGreaterThanOrEqual(orders.length);
  });

  it("GIVEN an older form of those orders delivered again afterwards THEN nothing changes upstream or in their state", async () => {
    const since = s.emu.control.lastRequestSeq();
    await Promise.all(
      orders.map((o) =>
        deliver(
          "orders/updated",
          order(o.id, o.customer, { financial_status: "pending", updated_at: OLDER }),
          `late-${o.id}`,
        ),
      ),
    );
    expect(s.emu.control.requests(since).filter((r) => r.path.startsWith("/api/acme/orders"))).toHaveLength(0);
    for (const o of orders) expect(upstream(o.id)?.status).toBe("paid");
  });
});
