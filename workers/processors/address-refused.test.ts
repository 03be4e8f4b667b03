import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../../test/helpers/stack";
import { eventually } from "../../test/helpers/contexts";
import { orderPayload } from "../../test/helpers/order-payloads";
import { startSimulatedStore, type SimCustomerConsent, type SimulatedStore } from "../../sandbox/simulated-store";
import { createConsentRepository, statesOf } from "../../app/.server/consent/consent.repository";
import { metrics } from "../../app/.server/metrics/metrics";
import { redisUrl } from "../../test/helpers/redis";
import { runCli } from "../../app/.server/cli/main";
import type { CliIo } from "../../app/.server/cli/command";
import { syncOverview } from "../../app/.server/admin/sync-overview";
import { seedOfflineSession } from "../../test/helpers/offline-session";

// Shopify refusing this server's address (the app's IP allowlist), on real parts: every Admin API
// call of the simulated store answers 403. The shop's state is recorded with Shopify's body, the
// work that met it is parked, only the probe calls Shopify meanwhile (counted on the store), and
// when the store lets the address through again the probe clears the state and the parked consent
// read corrects the order that went out with the unknown-consent answer.

type Json = Record<string, unknown>;
const SHOP = "allowlist.myshopify.com";
const CUSTOMER = 7412345600077;
const ORDER = 5923018200077;
const customerOf = JSON.parse(readFileSync("test/fixtures/orders/paid-web-customer.json", "utf8")).customer as Json;
let s: Stack;
let store: SimulatedStore;
let shopId: string;

const consent: SimCustomerConsent = {
  customerId: CUSTOMER,
  email: "avery.johnson@example.com",
  phone: "+12125550134",
  channels: {
    email: { state: "SUBSCRIBED", updatedAt: "2026-10-01T10:00:00Z" },
    sms: { state: "SUBSCRIBED", updatedAt: "2026-10-01T10:00:00Z" },
    whatsapp: { state: "SUBSCRIBED", updatedAt: "2026-10-01T10:00:00Z" },
  },
};
const held = (orderId: number) => {
  const o = s.emu.control.state("acme").orders.find((x) => x.orderId === String(orderId));
  return o && [o.optOutEmail, o.optOutSMS, o.optOutWhatsApp];
};

beforeAll(async () => {
  store = await startSimulatedStore({ shop: SHOP, products: 3 });
  s = await startStack("address-refused", {
    SHOPIFY_ORIGIN: store.originTemplate,
    ORDER_TRACKING_GRACE_MS: "0",
    JOB_BACKOFF_MS: "50",
    ADMIN_PROBE_MIN_MS: "300",
    ADMIN_PROBE_MAX_MS: "2000",
  });
  await s.connect(SHOP);
  await seedOfflineSession(s.t.db, store, { shop: SHOP });
  await s.web.shops.setPrimaryDomain(SHOP, store.primaryDomain);
  shopId = (await s.web.shops.get(SHOP)).id;
});
afterAll(async () => {
  await s?.close();
  await store?.close();
});

describe("Shopify refuses this server's address", () => {
  let from = 0;

  it("GIVEN every Admin API call answering 403 THEN the order goes with the unknown-consent answer, the shop's state keeps Shopify's body, and only the probe calls Shopify, with backoff", async () => {
    store.setCustomerConsent(consent);
    store.refuseAddress(true);
    await s.idle();
    from = store.requests.length;
    const webhookId = "wh-allowlist-1";
    const payload = orderPayload(ORDER, {
      customer: { ...customerOf, id: CUSTOMER, admin_graphql_api_id: `gid://shopify/Customer/${CUSTOMER}` },
      updated_at: "2026-11-20T13:00:00-05:00",
    });
    expect((await s.deliver("orders/create", SHOP, payload, { webhookId })).status).toBe(200);
    await eventually(
      () => s.t.db.webhookDelivery.findUnique({ where: { id: webhookId } }),
      (r) => r?.status === "done",
    );
    // Not held back: e-mail by default, SMS and WhatsApp not yet known.
    expect(held(ORDER)).toEqual([false, true, true]);

    const state = await s.worker.refusals.get(SHOP);
    expect(state?.detail).toContain("IP allowlist");
    // Three probes refused, each after a longer wait than the one before.
    const after = await eventually(
      () => s.worker.refusals.get(SHOP),
      (r) => (r?.probes ?? 0) >= 3,
      20_000,
    );
    const calls = store.requests.slice(from);
    expect(calls.every((r) => r.status === 403)).toBe(true);
    const probes = calls.filter((r) => r.operationName === "AdminAccessProbe").length;
    expect(probes).toBeGreaterThanOrEqual(after!.probes);
    expect(probes).toBeLessThanOrEqual(after!.probes + 1);
    // No hot loop: the work that met the refusal asked once (the consent read, the order's product),
    // and parked jobs that woke meanwhile met the gate, not Shopify.
    expect(calls.length - probes).toBeLessThanOrEqual(3);
    expect(await s.worker.refusals.parkedCount(SHOP)).toBeGreaterThanOrEqual(1);
    expect(after!.nextProbeAt!.getTime()).toBeGreaterThan(after!.lastProbeAt!.getTime());
    expect(await metrics().registry.getSingleMetricAsString("reviews_shopify_address_refused_shops")).toMatch(
      /reviews_shopify_address_refused_shops 1$/m,
    );
    expect(s.worker.sink.text()).not.toContain(store.accessToken);

    // The operator and the merchant see it: `cli status` and the Sync page's data.
    const stdout: string[] = [];
    const io: CliIo = {
      out: (l) => stdout.push(l),
      err: (l) => stdout.push(l),
      env: { ...process.env, DATABASE_URL: s.t.url, REDIS_PREFIX: s.prefix, REDIS_URL: redisUrl() },
    };
    const code = await runCli(["status", "--shop", SHOP], io);
    expect(code).toBe(0);
    expect(stdout.join("\n")).toMatch(
      /Admin API: +Shopify refused this server's address: add it to the app's IP allowlist \(since /,
    );
    expect(stdout.join("\n")).toContain(
      `Shopify said: {"errors":"[API] This request's source IP address is not in the app's IP allowlist."}`,
    );
    const page = await syncOverview(s.web, SHOP);
    expect(page.addressRefused?.detail).toContain("IP allowlist");
    expect(page.addressRefused?.nextProbeAt).not.toBeNull();
  }, 40_000);

  it("GIVEN the store accepts the address again THEN the next probe clears the state, the parked consent read runs and the order is corrected upstream", async () => {
    store.refuseAddress(false);
    await eventually(
      () => s.worker.refusals.get(SHOP),
      (r) => r === null,
      20_000,
    );
    await eventually(
      async () => held(ORDER),
      (h) => JSON.stringify(h) === JSON.stringify([false, false, false]),
      20_000,
    );
    await s.idle();
    const record = await createConsentRepository(s.t.db).get(shopId, String(CUSTOMER));
    expect(record?.readAt).toBeInstanceOf(Date);
    expect(statesOf(record)).toEqual({ email: "subscribed", sms: "subscribed", whatsapp: "subscribed" });
    expect(await s.worker.refusals.parkedCount(SHOP)).toBe(0);
    expect(
      store.requests.slice(from).filter((r) => r.operationName === "CustomerConsent" && r.status === 200),
    ).toHaveLength(1);
    expect(await metrics().registry.getSingleMetricAsString("reviews_shopify_address_refused_shops")).toMatch(
      /reviews_shopify_address_refused_shops 0$/m,
    );
    expect((await syncOverview(s.web, SHOP)).addressRefused).toBeNull();
  }, 40_000);
});
