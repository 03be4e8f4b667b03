import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../helpers/stack";
import { eventually } from "../helpers/contexts";
import { adminForm, adminRequest } from "../helpers/session-token";
import {
  OrderBook,
  ordersModule,
  productDeletePayload,
  productWebhookPayload,
  startSimulatedStore,
  type SimulatedStore,
} from "../../sandbox/simulated-store";
import { startSync } from "../../app/.server/sync/start-sync";
import { QueueName } from "../../app/.server/queues/names";
import { ADMIN_SESSION_LIFETIME_MS, seedOfflineSession } from "../helpers/offline-session";

// Two shops on one deployment, each with its own reviews-service account and its own Shopify
// access token, both with data: mirrored products, orders, sync runs, webhook deliveries,
// compliance records. Shop A then receives webhooks carrying ids that exist only under shop B
// (product ids, order ids, B's bulk operation), compliance webhooks, jobs whose data names B's
// row id, and admin requests that name B. Whatever A does, B's rows, B's staged changes and B's
// account at the service stay exactly as they were, and A's work uses only A's credentials:
// A's client id at the service and A's access token at Shopify.

const A = "alpha-isolation.myshopify.com";
const B = "bravo-isolation.myshopify.com";

let s: Stack;
let store: SimulatedStore;
let shopify: Server;
/** Whose access token each call to Shopify's Admin API presented (a shop, or "unknown"), in order. */
const shopifyTokens: string[] = [];
/** The shop each access token was issued to: at install, or by a refresh at that shop's origin. */
const tokenOwner = new Map<string, string>();
const book = new OrderBook({ seed: 3, count: 0, productCount: 8 });
let idA: string;
let idB: string;

/**
 * One simulated store answers for both shops (SHOPIFY_ORIGIN names this front as
 * /shops/{shop}), so this front records whose token each call presented, and which shop each
 * refreshed token was issued to, and passes both through: Shopify's side of "two shops, two tokens".
 */
async function startShopifyFront(upstream: SimulatedStore): Promise<Server> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const [, shop = "", path = ""] = /^\/shops\/([^/]+)(\/.*)$/.exec(req.url ?? "") ?? [];
      const token = String(req.headers["x-shopify-access-token"] ?? "");
      const isTokenCall = path === "/admin/oauth/access_token";
      if (!isTokenCall) shopifyTokens.push(tokenOwner.get(token) === shop ? shop : "unknown");
      const answer = await fetch(`${upstream.origin}${path}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-shopify-access-token": tokenOwner.get(token) === shop ? token : "unknown",
        },
        body: Buffer.concat(chunks),
      });
      const body = Buffer.from(await answer.arrayBuffer());
      if (isTokenCall && answer.ok)
        tokenOwner.set((JSON.parse(body.toString()) as { access_token: string }).access_token, shop);
      res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

async function deliver(topic: string, shop: string, payload: unknown) {
  const webhookId = `iso-${randomBytes(6).toString("hex")}`;
  const res = await s.deliver(topic, shop, payload, { webhookId });
  expect(res.status).toBe(200);
  return webhookId;
}
const settled = (id: string) =>
  eventually(
    () => s.t.db.webhookDelivery.findUnique({ where: { id } }),
    (d) => d?.status === "done",
    30_000,
  );
const deliverAndWait = async (topic: string, shop: string, payload: unknown) =>
  settled(await deliver(topic, shop, payload));

/** Everything the app holds for one shop, in a stable order. */
async function holdings(shopId: string, domain: string) {
  const db = s.t.db;
  const byShop = { where: { shopId } };
  return {
    shop: await db.shop.findUnique({ where: { id: shopId } }),
    sessions: await db.session.findMany({ where: { shop: domain }, orderBy: { id: "asc" } }),
    mirror: await db.productMirror.findMany({ ...byShop, orderBy: { productId: "asc" } }),
    orders: await db.orderState.findMany({ ...byShop, orderBy: { orderId: "asc" } }),
    runs: await db.syncRun.findMany({ ...byShop, orderBy: { id: "asc" } }),
    deliveries: await db.webhookDelivery.findMany({ ...byShop, orderBy: { id: "asc" } }),
    compliance: await db.complianceRequest.findMany({ where: { shopDomain: domain }, orderBy: { id: "asc" } }),
    pending: await s.worker.pending.pendingCount(shopId),
    onboarding: await db.adminOnboarding.findUnique({ where: { shopId } }),
  };
}
/** What the service holds for an account. */
const upstream = (customer: string) => s.emu.control.state(customer);
const servicePaths = (since: number) => s.emu.control.requests(since).map((r) => r.path);
const tokenClients = (since: number) =>
  s.emu.control
    .requests(since)
    .filter((r) => r.path.endsWith("/oauth/token"))
    .map((r) => (r.body as { client_id: string }).client_id);

beforeAll(async () => {
  // Refreshed pairs live Shopify's hour too: the admin requests below must not find one ending soon.
  store = await startSimulatedStore({
    shop: A,
    products: 8,
    seed: 3,
    bulkDurationMs: 50,
    modules: [ordersModule(book)],
    tokenLifetimeMs: ADMIN_SESSION_LIFETIME_MS,
  });
  shopify = await startShopifyFront(store);
  const { port } = shopify.address() as AddressInfo;
  s = await startStack("tenants", { SHOPIFY_ORIGIN: `http://127.0.0.1:${port}/shops/{shop}` });
  s.emu.control.addAccount({ customer: "bravo", clientId: "bravo-client", clientSecret: "bravo-secret-0123456789" });
  await s.connect(A, "acme");
  await s.connect(B, "bravo");
  for (const shop of [A, B])
    tokenOwner.set(
      (await seedOfflineSession(s.t.db, store, { shop, scope: s.config.SCOPES, lifetimeMs: ADMIN_SESSION_LIFETIME_MS }))
        .accessToken,
      shop,
    );
  idA = (await s.web.shops.get(A)).id;
  idB = (await s.web.shops.get(B)).id;
}, 60_000);
afterAll(async () => {
  await s?.close();
  await store?.close();
  await new Promise((r) => shopify?.close(r));
});

// Set up by the first test, read by the ones after it (they run in order).
let bOnlyProduct: ReturnType<SimulatedStore["addProduct"]>;
let bOnlyProduct2: ReturnType<SimulatedStore["addProduct"]>;
let bOrder: ReturnType<OrderBook["place"]>;
let bBefore: Awaited<ReturnType<typeof holdings>>;
let bUpstreamBefore: ReturnType<typeof upstream>;

describe("tenant isolation", () => {
  it("GIVEN two shops synced THEN each shop's data went to its own account with its own credentials", async () => {
    let since = s.emu.control.lastRequestSeq();
    let tokensFrom = shopifyTokens.length;
    const runA = (await startSync({ db: s.t.db, queues: s.web.queues }, idA, "catalog")).run;
    await eventually(
      () => s.t.db.syncRun.findUniqueOrThrow({ where: { id: runA.id } }),
      (r) => r.status === "completed",
      60_000,
    );
    expect(new Set(tokenClients(since))).toEqual(new Set(["acme-client"]));
    expect(
      servicePaths(since)
        .filter((p) => p.startsWith("/api/"))
        .every((p) => p.startsWith("/api/acme/")),
    ).toBe(true);
    expect(new Set(shopifyTokens.slice(tokensFrom))).toEqual(new Set([A]));

    since = s.emu.control.lastRequestSeq();
    tokensFrom = shopifyTokens.length;
    const runB = (await startSync({ db: s.t.db, queues: s.web.queues }, idB, "catalog")).run;
    await eventually(
      () => s.t.db.syncRun.findUniqueOrThrow({ where: { id: runB.id } }),
      (r) => r.status === "completed",
      60_000,
    );
    expect(new Set(tokenClients(since))).toEqual(new Set(["bravo-client"]));
    expect(
      servicePaths(since)
        .filter((p) => p.startsWith("/api/"))
        .every((p) => p.startsWith("/api/bravo/")),
    ).toBe(true);
    expect(new Set(shopifyTokens.slice(tokensFrom))).toEqual(new Set([B]));

    // Data only B has: two products, an order, a data request, and a run still reading its bulk operation.
    bOnlyProduct = store.addProduct({ title: "Bravo only", productType: "Mugs" });
    bOnlyProduct2 = store.addProduct({ title: "Bravo only, second", productType: "Mugs" });
    await deliverAndWait("products/create", B, productWebhookPayload(bOnlyProduct));
    await deliverAndWait("products/create", B, productWebhookPayload(bOnlyProduct2));
    bOrder = book.place({ lines: [{ productIndex: 0 }, { productIndex: 1 }], financialStatus: "PAID" });
    for (const w of bOrder.webhooks) await deliverAndWait(w.topic, B, w.payload);
    const bOrderId = String(bOrder.order.id);
    await deliverAndWait("customers/data_request", B, {
      shop_domain: B,
      customer: { id: bOrder.order.customer?.id ?? 1 },
      orders_requested: [bOrder.order.id],
      data_request: { id: 7 },
    });
    await s.t.db.syncRun.create({
      data: { shopId: idB, kind: "catalog", status: "running", bulkOperationId: "gid://shopify/BulkOperation/424242" },
    });
    await eventually(
      async () => upstream("bravo").products.length,
      (n) => n === 10,
    );
    await eventually(async () => upstream("bravo").orders.some((o) => o.orderId === bOrderId), Boolean);
    // The service holding B's data is not the end of it: mirror rows, order state and the pending
    // count are written after the service answers. The baseline is B once nothing is left to do.
    await s.idle();

    bBefore = await holdings(idB, B);
    bUpstreamBefore = upstream("bravo");
    expect(bBefore.mirror.map((m) => m.productId)).toContain(String(bOnlyProduct.id).split("/").pop());
    expect(bBefore.orders.map((o) => o.orderId)).toEqual([bOrderId]);
    expect(bBefore.runs).toHaveLength(2);
    expect(bBefore.compliance).toHaveLength(1);
    expect(bBefore.deliveries.length).toBeGreaterThanOrEqual(4);
    expect(upstream("acme").orders).toHaveLength(0);
    expect(upstream("acme").products).toHaveLength(8);
  }, 120_000);

  it("GIVEN webhooks signed for A carrying B's product, order and bulk operation ids THEN only A's rows and A's account change", async () => {
    const since = s.emu.control.lastRequestSeq();
    const tokensFrom = shopifyTokens.length;
    const productB = String(bOnlyProduct.id).split("/").pop()!;
    const orderB = String(bOrder.order.id);

    // products/update of B's product id under A: a new product of A's, at A's account.
    const renamed = productWebhookPayload({ ...bOnlyProduct, title: "Alpha's idea of it" });
    await deliverAndWait("products/update", A, renamed);
    await eventually(
      async () => upstream("acme").products.find((p) => p.sku === productB)?.name,
      (n) => n === "Alpha's idea of it",
    );
    // products/delete of a product only B has: A never had it, so nothing is deactivated anywhere.
    await deliverAndWait("products/delete", A, productDeletePayload(bOnlyProduct2));
    // Orders: B's order id, cancelled under A.
    const cancelled = {
      ...(structuredClone(bOrder.webhooks[0]!.payload) as Record<string, unknown>),
      cancelled_at: new Date().toISOString(),
      cancel_reason: "customer",
      updated_at: new Date(Date.now() + 60_000).toISOString(),
    };
    await deliverAndWait("orders/create", A, bOrder.webhooks[0]!.payload);
    await deliverAndWait("orders/cancelled", A, cancelled);
    await eventually(
      async () => upstream("acme").orders.find((o) => o.orderId === orderB)?.status,
      (st) => st === "cancelled",
    );
    // bulk_operations/finish naming B's running operation.
    await deliverAndWait("bulk_operations/finish", A, {
      admin_graphql_api_id: "gid://shopify/BulkOperation/424242",
      completed_at: new Date().toISOString(),
      created_at: new Date().toISOString(),
      error_code: null,
      status: "completed",
      type: "query",
    });
    // Let every follow-up job (catalog flush, product fetches) finish before comparing.
    await s.idle();

    expect(await holdings(idB, B)).toEqual(bBefore);
    expect(upstream("bravo")).toEqual(bUpstreamBefore);
    const a = await holdings(idA, A);
    expect(a.mirror.map((m) => m.productId)).toContain(productB);
    expect(a.mirror.map((m) => m.productId)).not.toContain(String(bOnlyProduct2.id).split("/").pop());
    expect(a.orders.map((o) => o.orderId)).toEqual([orderB]);
    expect(upstream("acme").products.find((p) => p.sku === String(bOnlyProduct2.id).split("/").pop())).toBeUndefined();

    // Everything A's deliveries caused used A's credentials only.
    expect(tokenClients(since).filter((c) => c !== "acme-client")).toEqual([]);
    const apiPaths = servicePaths(since).filter((p) => p.startsWith("/api/"));
    expect(apiPaths.length).toBeGreaterThan(0);
    expect(apiPaths.filter((p) => !p.startsWith("/api/acme/"))).toEqual([]);
    expect(shopifyTokens.slice(tokensFrom).filter((t) => t !== A)).toEqual([]);
  }, 90_000);

  it("GIVEN a job naming A's domain but B's row id THEN it works on A only, with A's credentials", async () => {
    // B has a change staged, not yet flushed; a flush job for A that carries B's id must not send it.
    await s.worker.pending.stage(idB, {
      productId: "999",
      sku: "999",
      hash: "h-999",
      product: { sku: "999", name: "Staged for B", categories: ["Mugs"] },
    });
    const since = s.emu.control.lastRequestSeq();
    const job = await s.web.queues.get(QueueName.catalog).add("flush", { shop: A, shopId: idB });
    await eventually(
      async () => (await s.web.queues.get(QueueName.catalog).getJob(job.id!))?.finishedOn,
      Boolean,
      30_000,
    );
    expect(await s.worker.pending.pendingCount(idB)).toBe(1);
    expect(servicePaths(since).filter((p) => p.startsWith("/api/bravo/"))).toEqual([]);
    expect(upstream("bravo").products.find((p) => p.sku === "999")).toBeUndefined();
    // Back as it was for the comparisons that follow.
    await s.worker.pending.clear(idB);
    expect(await s.worker.pending.pendingCount(idB)).toBe(0);
  }, 60_000);

  it("GIVEN admin requests THEN the loader shows the session's shop only, whatever the URL names", async () => {
    const { loader } = await import("../../app/routes/app._index");
    const call = (request: Request) => loader({ request, params: {}, context: {} });
    expect(await call(adminRequest(A, "/app"))).toMatchObject({
      domain: A,
      customerKey: "acme",
      clientId: "acme-client",
    });
    expect(
      await call(adminRequest(A, `/app?shop=${B}&host=${Buffer.from(`${B}/admin`).toString("base64")}`)),
    ).toMatchObject({ domain: A, customerKey: "acme" });
    expect(await call(adminRequest(B, "/app"))).toMatchObject({ domain: B, customerKey: "bravo" });
    // A token for B not signed by Shopify (not with the app's secret) is refused, not served.
    const forged = await call(adminRequest(B, "/app", { secret: "not-the-app-secret" })).catch((e: unknown) => e);
    expect(forged).toBeInstanceOf(Response);
    expect((forged as Response).status).toBe(401);
  }, 30_000);

  it("GIVEN every admin page WHEN shop A's session names shop B in the URL or B's ids in a form THEN A sees and changes only its own data", async () => {
    const bHost = Buffer.from(`${B}/admin`).toString("base64");
    const naming = (path: string) => `${path}${path.includes("?") ? "&" : "?"}shop=${B}&host=${bHost}`;
    const args = (request: Request) => ({ request, params: {}, context: {} });
    const since = s.emu.control.lastRequestSeq();
    const aMirror = await s.t.db.productMirror.count({ where: { shopId: idA, status: "synced" } });

    const sync = await import("../../app/routes/app.sync");
    expect(await sync.loader(args(adminRequest(A, naming("/app/sync"))))).toMatchObject({
      products: { synced: aMirror },
    });
    const settings = await import("../../app/routes/app.settings");
    const aSettings = await settings.loader(args(adminRequest(A, naming("/app/settings"))));
    expect(aSettings.values["catalog.defaultCategory"]).toBe((await s.web.shops.settings(A)).catalog.defaultCategory);
    const reviews = await import("../../app/routes/app.reviews");
    expect(await reviews.loader(args(adminRequest(A, naming("/app/reviews?status=all"))))).toMatchObject({
      shop: A,
      connected: true,
    });
    const report = await import("../../app/routes/app.report");
    expect(await report.loader(args(adminRequest(A, naming("/app/report"))))).toMatchObject({
      shop: A,
      connected: true,
    });
    for (const route of ["questions", "surveys", "groups"]) {
      const { loader } = await import(`../../app/routes/app.${route}.tsx`);
      expect(await loader(args(adminRequest(A, naming(`/app/${route}`))))).toMatchObject({ connected: true });
    }
    // A group created from A's page goes to A's account.
    const groups = await import("../../app/routes/app.groups");
    expect(
      await groups.action(
        args(adminForm(A, naming("/app/groups"), { intent: "create", name: "Alpha group", key: "999001" })),
      ),
    ).toMatchObject({ ok: true });
    expect(upstream("acme").groups.map((g) => g.name)).toContain("Alpha group");
    const csv = await import("../../app/routes/app.report[.csv]");
    await (await csv.loader(args(adminRequest(A, naming("/app/report.csv"))))).text();

    // Actions: A's settings, A's checklist, a retry naming a product only B has, a sync.
    expect(
      await settings.action(args(adminForm(A, naming("/app/settings"), { "catalog.defaultCategory": "Alpha things" }))),
    ).toMatchObject({ ok: true });
    expect((await s.web.shops.settings(A)).catalog.defaultCategory).toBe("Alpha things");
    const home = await import("../../app/routes/app._index");
    await home.action(args(adminForm(A, naming("/app?index"), { intent: "confirm-policy" })));
    await sync.action(
      args(
        adminForm(A, naming("/app/sync"), {
          intent: "retry-product",
          productId: String(bOnlyProduct2.id).split("/").pop()!,
        }),
      ),
    );
    // Credentials posted by A naming B's account: checked and stored for A, never for B.
    await home.action(
      args(
        adminForm(A, naming("/app?index"), {
          intent: "credentials",
          customerKey: "acme",
          clientId: "acme-client",
          clientSecret: "",
        }),
      ),
    );
    await s.idle();

    expect(await holdings(idB, B)).toEqual(bBefore);
    expect(upstream("bravo")).toEqual(bUpstreamBefore);
    expect(tokenClients(since).filter((c) => c !== "acme-client")).toEqual([]);
    expect(servicePaths(since).filter((p) => p.startsWith("/api/") && !p.startsWith("/api/acme/"))).toEqual([]);
  }, 60_000);

  it("GIVEN compliance webhooks for A naming B's customer and order THEN A's records go and B's stay", async () => {
    const orderB = String(bOrder.order.id);
    const customerB = bOrder.order.customer?.id ?? 1;
    await deliverAndWait("customers/data_request", A, {
      shop_domain: A,
      customer: { id: customerB },
      orders_requested: [orderB],
      data_request: { id: 8 },
    });
    const [record] = await s.t.db.complianceRequest.findMany({ where: { shopDomain: A } });
    expect(JSON.parse(record!.record).storedByThisApp.map((o: { orderId: string }) => o.orderId)).toEqual([orderB]);

    await deliverAndWait("customers/redact", A, {
      shop_domain: A,
      customer: { id: customerB },
      orders_to_redact: [orderB],
    });
    expect(await s.t.db.orderState.count({ where: { shopId: idA } })).toBe(0);

    const redact = await deliver("shop/redact", A, { shop_domain: A });
    await eventually(
      () => s.t.db.complianceRequest.count({ where: { shopDomain: A, topic: "shop/redact" } }),
      (n) => n === 1,
    );
    expect(await s.t.db.webhookDelivery.findUnique({ where: { id: redact } })).toBeNull();
    expect(await s.t.db.shop.count({ where: { domain: A } })).toBe(0);
    expect(await s.t.db.session.count({ where: { shop: A } })).toBe(0);
    expect(await s.t.db.productMirror.count({ where: { shopId: idA } })).toBe(0);

    await s.idle();
    expect(await holdings(idB, B)).toEqual(bBefore);
    expect(upstream("bravo")).toEqual(bUpstreamBefore);
  }, 60_000);
});
