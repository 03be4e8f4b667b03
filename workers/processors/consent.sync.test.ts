import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../../test/helpers/stack";
import { eventually } from "../../test/helpers/contexts";
import { orderPayload } from "../../test/helpers/order-payloads";
import {
  consentWebhook,
  startSimulatedStore,
  type SimCustomerConsent,
  type SimulatedStore,
} from "../../sandbox/simulated-store";
import { createConsentRepository, statesOf } from "../../app/.server/consent/consent.repository";
import { seedOfflineSession } from "../../test/helpers/offline-session";

// Buyers' consent on the live path, on real parts: order webhooks → one CustomerConsent read per
// customer the app does not know (the simulated store counts them) → opt-outs upstream; consent
// webhooks → the customer's orders corrected upstream, once; out-of-order reports; a failing read.

type Json = Record<string, unknown>;
const SHOP = "consent-live.myshopify.com";
const customerOf = JSON.parse(readFileSync("test/fixtures/orders/paid-web-customer.json", "utf8")).customer as Json;
let s: Stack;
let store: SimulatedStore;
let shopId: string;

/** The paid fixture order, bought by customer `customerId`. */
const order = (id: number, customerId: number, patch: Json = {}) =>
  orderPayload(id, {
    customer: { ...customerOf, id: customerId, admin_graphql_api_id: `gid://shopify/Customer/${customerId}` },
    ...patch,
  });

const consentOf = (
  customerId: number,
  email: string,
  sms: string | null,
  whatsapp: string | null,
  at = "2026-10-01T10:00:00Z",
): SimCustomerConsent => ({
  customerId,
  email: "avery.johnson@example.com",
  phone: sms ? "+12125550134" : null,
  channels: {
    email: { state: email as never, updatedAt: at },
    sms: sms ? { state: sms as never, updatedAt: at } : null,
    whatsapp: whatsapp ? { state: whatsapp as never, updatedAt: at } : null,
  },
});

const orderPosts = (since: number) =>
  s.emu.control.requests(since).filter((r) => r.method === "POST" && r.path === "/api/acme/orders");
const held = (orderId: number) => {
  const o = s.emu.control.state("acme").orders.find((x) => x.orderId === String(orderId));
  return o && [o.optOutEmail, o.optOutSMS, o.optOutWhatsApp];
};
const consentReads = () => store.operationCount("CustomerConsent");

async function deliver(topic: string, payload: unknown, webhookId = `wh-${Math.random().toString(36).slice(2)}`) {
  expect((await s.deliver(topic, SHOP, payload, { webhookId })).status).toBe(200);
  const row = await eventually(
    () => s.t.db.webhookDelivery.findUnique({ where: { id: webhookId } }),
    (r) => r?.status === "done" || r?.status === "failed",
  );
  return row!;
}

beforeAll(async () => {
  store = await startSimulatedStore({ shop: SHOP });
  s = await startStack("consent-live", {
    SHOPIFY_ORIGIN: store.originTemplate,
    ORDER_TRACKING_GRACE_MS: "0",
    JOB_BACKOFF_MS: "50",
  });
  await s.connect(SHOP);
  await seedOfflineSession(s.t.db, store, { shop: SHOP });
  shopId = (await s.web.shops.get(SHOP)).id;
});
afterAll(async () => {
  await s?.close();
  await store?.close();
});

describe("a new customer's order", () => {
  const CUSTOMER = 7412345600001;
  it("GIVEN the first order of a customer the app does not know THEN their consent is read once and the order carries the default policy's opt-outs", async () => {
    store.setCustomerConsent(consentOf(CUSTOMER, "NOT_SUBSCRIBED", "SUBSCRIBED", "NOT_SUBSCRIBED"));
    const reads = consentReads();
    expect(
      (
        await deliver(
          "orders/create",
          order(5923018200001, CUSTOMER, { financial_status: "pending", updated_at: "2026-11-20T10:00:00-05:00" }),
        )
      ).status,
    ).toBe("done");
    // E-mail: sent (not unsubscribed); SMS: subscribed; WhatsApp: no consent.
    expect(held(5923018200001)).toEqual([false, false, true]);
    expect(consentReads()).toBe(reads + 1);
    expect(statesOf(await createConsentRepository(s.t.db).get(shopId, String(CUSTOMER)))).toEqual({
      email: "not_subscribed",
      sms: "subscribed",
      whatsapp: "not_subscribed",
    });
  });

  it("GIVEN the order's next change and the customer's next order THEN no further consent read (cached)", async () => {
    // The first order also asked for its product (not in the mirror here): that fetch is done first.
    await s.idle();
    const calls = store.requests.length;
    await deliver("orders/paid", order(5923018200001, CUSTOMER, { updated_at: "2026-11-20T10:00:05-05:00" }));
    await deliver("orders/create", order(5923018200002, CUSTOMER, { updated_at: "2026-11-20T11:00:00-05:00" }));
    expect(held(5923018200002)).toEqual([false, false, true]);
    // No consent read (the product the orders name, unknown to this store, is the mirror's business).
    expect(store.requests.slice(calls).filter((r) => r.operationName === "CustomerConsent")).toHaveLength(0);
  });

  it("GIVEN a guest order and a test order THEN no consent read at all", async () => {
    await s.idle();
    const calls = store.requests.length;
    await deliver(
      "orders/create",
      orderPayload(5923018200003, { customer: null, updated_at: "2026-11-20T12:00:00-05:00" }),
    );
    await deliver("orders/create", order(5923018200004, 7412345600099, { test: true }));
    expect(held(5923018200003)).toEqual([false, true, true]);
    expect(store.requests.slice(calls).filter((r) => r.operationName === "CustomerConsent")).toHaveLength(0);
  });
});

describe("a consent webhook", () => {
  const CUSTOMER = 7412345600001; // the customer above, with two orders upstream
  const ORDERS = [5923018200001, 5923018200002];

  it("GIVEN the buyer unsubscribes from SMS THEN each of their orders is updated upstream exactly once, with the new opt-out", async () => {
    const since = s.emu.control.lastRequestSeq();
    const change = consentWebhook(
      consentOf(CUSTOMER, "NOT_SUBSCRIBED", "UNSUBSCRIBED", "NOT_SUBSCRIBED", "2026-11-21T09:00:00Z"),
      "sms",
    );
    expect(change.topic).toBe("customers_marketing_consent/update");
    expect((await deliver(change.topic, change.payload, "sms-off-1")).status).toBe("done");
    const posts = orderPosts(since);
    expect(posts.map((p) => (p.body as Json).orderId).sort()).toEqual(ORDERS.map(String));
    expect(posts.every((p) => (p.body as Json).version === 2 && (p.body as Json).optOutSMS === true)).toBe(true);
    for (const id of ORDERS) expect(held(id)).toEqual([false, true, true]);
    // The order kept everything else: status, items, buyer.
    expect(s.emu.control.state("acme").orders.find((o) => o.orderId === String(ORDERS[0]))).toMatchObject({
      status: "paid",
      email: "avery.johnson@example.com",
      items: [expect.objectContaining({ productId: "8712345677899" })],
    });
  });

  it("GIVEN the same change delivered again (new webhook id) THEN nothing is sent", async () => {
    const since = s.emu.control.lastRequestSeq();
    const change = consentWebhook(
      consentOf(CUSTOMER, "NOT_SUBSCRIBED", "UNSUBSCRIBED", "NOT_SUBSCRIBED", "2026-11-21T09:00:00Z"),
      "sms",
    );
    await deliver(change.topic, change.payload, "sms-off-2");
    expect(orderPosts(since)).toHaveLength(0);
  });

  it("GIVEN an older consent event delivered after the newer one THEN the newer wins: nothing changes here or upstream", async () => {
    const since = s.emu.control.lastRequestSeq();
    const stale = consentWebhook(
      consentOf(CUSTOMER, "NOT_SUBSCRIBED", "SUBSCRIBED", "NOT_SUBSCRIBED", "2026-11-20T09:00:00Z"),
      "sms",
    );
    expect((await deliver(stale.topic, stale.payload)).status).toBe("done");
    expect(orderPosts(since)).toHaveLength(0);
    expect(statesOf(await createConsentRepository(s.t.db).get(shopId, String(CUSTOMER))).sms).toBe("unsubscribed");
    for (const id of ORDERS) expect(held(id)).toEqual([false, true, true]);
  });

  it("GIVEN the order's next webhook that changes nothing the service sees THEN no request: the opt-outs upstream are already right", async () => {
    const since = s.emu.control.lastRequestSeq();
    await deliver(
      "orders/updated",
      order(ORDERS[0]!, CUSTOMER, { updated_at: "2026-11-21T10:00:00-05:00", tags: "vip" }),
    );
    expect(orderPosts(since)).toHaveLength(0);
  });

  it("GIVEN e-mail and WhatsApp changes THEN each channel moves on its own", async () => {
    const since = s.emu.control.lastRequestSeq();
    const email = consentWebhook(consentOf(CUSTOMER, "UNSUBSCRIBED", null, null, "2026-11-22T09:00:00Z"), "email");
    const whatsapp = consentWebhook(
      consentOf(CUSTOMER, "NOT_SUBSCRIBED", "UNSUBSCRIBED", "SUBSCRIBED", "2026-11-22T09:01:00Z"),
      "whatsapp",
    );
    expect(whatsapp.topic).toBe("customers_whats_app_marketing_consent/update");
    await Promise.all([deliver(email.topic, email.payload), deliver(whatsapp.topic, whatsapp.payload)]);
    for (const id of ORDERS) expect(held(id)).toEqual([true, true, false]);
    // At most one request per order per change.
    expect(orderPosts(since).length).toBeLessThanOrEqual(4);
  });
});

describe("a consent read that fails", () => {
  const CUSTOMER = 7412345600002;
  it("GIVEN Shopify failing the read THEN the order goes at once with the unknown-consent answer, and is corrected when the read succeeds", async () => {
    store.setCustomerConsent(consentOf(CUSTOMER, "SUBSCRIBED", "SUBSCRIBED", "SUBSCRIBED"));
    store.injectFailure({ status: 503, count: 1 });
    await deliver("orders/create", order(5923018200011, CUSTOMER, { updated_at: "2026-11-20T13:00:00-05:00" }));
    // Not held back: e-mail by default, SMS and WhatsApp not yet known.
    expect(held(5923018200011)).toEqual([false, true, true]);
    // The retried read learns the consent and corrects the order upstream.
    await eventually(
      async () => held(5923018200011),
      (h) => JSON.stringify(h) === JSON.stringify([false, false, false]),
    );
    await s.idle();
    expect((await createConsentRepository(s.t.db).get(shopId, String(CUSTOMER)))?.readAt).toBeInstanceOf(Date);
  });
});

describe("redaction", () => {
  it("GIVEN customers/data_request THEN the record lists the consent kept, states and times, no contact data", async () => {
    await deliver("customers/data_request", {
      shop_id: 1,
      shop_domain: SHOP,
      customer: { id: 7412345600002, email: "avery.johnson@example.com" },
      orders_requested: [5923018200011],
      data_request: { id: 9999 },
    });
    const row = await s.t.db.complianceRequest.findFirst({
      where: { shopDomain: SHOP, topic: "customers/data_request" },
    });
    const record = JSON.parse(row!.record) as { marketingConsent: Record<string, { state: string }> };
    expect(record.marketingConsent).toEqual({
      email: { state: "subscribed", updatedAt: "2026-10-01T10:00:00.000Z" },
      sms: { state: "subscribed", updatedAt: "2026-10-01T10:00:00.000Z" },
      whatsapp: { state: "subscribed", updatedAt: "2026-10-01T10:00:00.000Z" },
    });
    expect(row!.record).not.toContain("@example.com");
  });

  it("GIVEN customers/redact THEN the customer's consent record goes; shop/redact takes the rest", async () => {
    const repo = createConsentRepository(s.t.db);
    await deliver("customers/redact", {
      shop_id: 1,
      shop_domain: SHOP,
      customer: { id: 7412345600002, email: "avery.johnson@example.com" },
      orders_to_redact: [5923018200011],
    });
    expect(await repo.get(shopId, "7412345600002")).toBeNull();
    expect(await repo.get(shopId, "7412345600001")).not.toBeNull();
    // The shop's delivery trail goes with it: wait for the compliance record instead.
    expect((await s.deliver("shop/redact", SHOP, { shop_id: 1, shop_domain: SHOP })).status).toBe(200);
    await eventually(
      () => s.t.db.complianceRequest.count({ where: { shopDomain: SHOP, topic: "shop/redact" } }),
      (n) => n === 1,
    );
    expect(await s.t.db.customerConsent.count({ where: { shopId } })).toBe(0);
  });
});
