import { OrderBook, type OrderChange, type OrderWebhook } from "../../sandbox/simulated-store";
import { Rng, mixSeed } from "../../sandbox/simulated-store/random";
import { QueueName } from "../../app/.server/queues/names";
import { eventually } from "../helpers/contexts";
import { signedWebhookRequest } from "../helpers/webhooks";
import { busyJobs, runFullSync, startBenchStack, type Services } from "./bench-stack";
import {
  cpuSecondsOf,
  emulatorControl,
  runChild,
  startEmulatorChild,
  startServiceChild,
  startStoreChild,
} from "./children";
import { percentile, progress, round } from "./measure";
import { atMost, exactly, type BenchResult } from "./report";

// Scenario "order sync": a store of P products whose catalog is fully synced first (the product
// mirror is warm), then O orders that are placed, paid, shipped and delivered, each change sent as
// the webhooks Shopify sends for it (pay: orders/paid + orders/updated; ship: fulfillments/create +
// orders/fulfilled + orders/updated; deliver: fulfillment_events/create "delivered" +
// fulfillments/update + orders/updated), all of a change's deliveries at once, through the real
// route modules, changes paced at R per second. About half the orders also get an edit the service
// never sees (a tag: orders/updated only). This process is the web process; the workers run in one
// of their own. Measured:
// - per change that alters the mapped order, the delay from its first acknowledged delivery to the
//   first accepted upstream request carrying its status (POST orders, or PUT orders/{id});
// - upstream order requests per such change (from the emulator's request log);
// - Admin GraphQL requests the store answered during the run (the store counts them): with a warm
//   mirror only consent reads (CustomerConsent), at most one per customer new to the app and none
//   for a customer already known (their later orders, every later change of their orders).

export const ORDERS_SHOP = "bench-orders.myshopify.com";
export const ORDERS_MAX_P95_DELAY_MS = 2000;

type Kind = "place" | "pay" | "edit" | "ship" | "deliver";
/** What each change leaves upstream; the edit changes nothing the service sees. */
const STATUS_AFTER: Record<Kind, string | null> = {
  place: "created",
  pay: "paid",
  edit: null,
  ship: "shipped",
  deliver: "delivered",
};
const STATUS_RANK: Record<string, number> = { created: 0, paid: 1, shipped: 2, delivered: 3 };

interface PlannedChange {
  orderIndex: number;
  kind: Kind;
  webhooks: OrderWebhook[];
}

export interface OrderFigures {
  products: number;
  orders: number;
  rate: number;
  initialSync: { status: string; batches: number; seconds: number };
  changes: number;
  changesAltering: number;
  webhooks: number;
  webhooksByTopic: string;
  ingressSeconds: number;
  drainSeconds: number;
  ackP50Ms: number;
  ackP99Ms: number;
  non200Acks: number;
  orderRequests: number;
  orderRequestsByKind: string;
  orderRequestStatuses: string;
  requestsPerChange: number;
  delayP50Ms: number;
  delayP95Ms: number;
  delayMaxMs: number;
  changesNeverAccepted: number;
  changesSuperseded: number;
  delayP95ByKind: string;
  finalStatusMismatches: number;
  adminCallsDuringRun: number;
  adminCallsByOperation: string;
  adminCallsBesidesConsent: number;
  newCustomers: number;
  knownCustomerOrders: number;
  consentReads: number;
  consentReadsMaxPerCustomer: number;
  consentReadsForKnownCustomers: number;
  workerCpuMsPerWebhook: number | null;
  webCpuMsPerWebhook: number;
  warnings: number;
}

/** The workload: the same for a given seed. Changes come in timeline order, the book edited as they happen. */
function plan(o: { products: number; orders: number; seed: number }): {
  changes: PlannedChange[];
  ids: number[];
  customers: Map<string, number>;
} {
  const rng = new Rng(mixSeed(o.seed, 0x0bde));
  const book = new OrderBook({ seed: o.seed, productCount: o.products });
  // Each order's changes on a virtual clock (seconds): placed one after another, then paid within
  // seconds, shipped within a minute, delivered within a few minutes. Sorting by time interleaves them.
  const timeline: { t: number; orderIndex: number; kind: Kind }[] = [];
  for (let i = 0; i < o.orders; i++) {
    const placed = i * 4;
    const paid = placed + rng.int(1, 20);
    const shipped = paid + rng.int(10, 120);
    timeline.push({ t: placed, orderIndex: i, kind: "place" }, { t: paid, orderIndex: i, kind: "pay" });
    if (rng.chance(0.5)) timeline.push({ t: paid + rng.int(1, shipped - paid - 1), orderIndex: i, kind: "edit" });
    timeline.push(
      { t: shipped, orderIndex: i, kind: "ship" },
      { t: shipped + rng.int(20, 400), orderIndex: i, kind: "deliver" },
    );
  }
  timeline.sort((a, b) => a.t - b.t || a.orderIndex - b.orderIndex);
  // Shopify times in the past: the newest change is "now".
  const base = Date.now() - timeline.length * 1000;
  const ids: number[] = [];
  // Orders per customer GID (guests aside).
  const customers = new Map<string, number>();
  const changes = timeline.map((step, k): PlannedChange => {
    const at = new Date(base + k * 1000);
    const id = ids[step.orderIndex]!;
    let change: OrderChange;
    if (step.kind === "place") {
      const lines = Array.from({ length: rng.int(1, 3) }, () => ({
        productIndex: rng.int(0, o.products - 1),
        variantIndex: rng.int(0, 3),
      }));
      change = book.place({
        lines,
        customerIndex: rng.chance(0.1) ? null : rng.int(0, o.orders),
        financialStatus: "PENDING",
        at,
      });
      ids[step.orderIndex] = change.order.id;
      const buyer = change.order.customer ? `gid://shopify/Customer/${change.order.customer.id}` : null;
      if (buyer) customers.set(buyer, (customers.get(buyer) ?? 0) + 1);
    } else if (step.kind === "pay") change = book.pay(id, at);
    else if (step.kind === "edit") change = book.update(id, () => undefined, at);
    else if (step.kind === "ship") change = book.fulfil(id, { at });
    else change = book.deliver(id, { at });
    return { orderIndex: step.orderIndex, kind: step.kind, webhooks: change.webhooks };
  });
  return { changes, ids, customers };
}

/** CPU time (user + system) a live process has used, in ms; null where /proc is not available. */
function cpuMsOf(pid: number | undefined): number | null {
  const seconds = cpuSecondsOf(pid);
  return Number.isFinite(seconds) ? seconds * 1000 : null;
}

interface StoreStats {
  graphqlRequests: number;
  byOperation: Record<string, number>;
  /** CustomerConsent reads by customer GID. */
  consentReads: Record<string, number>;
}

async function storeStats(controlUrl: string): Promise<StoreStats> {
  const res = await fetch(new URL("/stats", controlUrl));
  if (!res.ok) throw new Error(`store stats: ${res.status}`);
  return (await res.json()) as StoreStats;
}

const tally = (m: Map<string, number>) => [...m.entries()].map(([k, n]) => `${k}×${n}`).join(", ") || "none";
const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);

// ---------- inside the measured child ----------

export async function ordersChild(o: {
  products: number;
  orders: number;
  rate: number;
  seed: number;
  services: Services;
}): Promise<OrderFigures> {
  const { services } = o;
  const s = await startBenchStack("bench-orders", services, { workers: false });
  const emu = emulatorControl(services.emulator.origin);
  const ordersPath = `/api/${services.emulator.customer}/orders`;
  const workers = await startServiceChild<{ warnings: number; lastWarnings: string[] }>(
    ["--child", "workers", "--services", JSON.stringify(services), "--database-url", s.t.url, "--prefix", s.prefix],
    "workers",
  );
  let workerLog: { warnings: number; lastWarnings: string[] } | undefined;
  try {
    progress(`full sync of ${o.products} products first (the mirror the orders read)`);
    const sync = await runFullSync(s, 180_000);
    const syncLog = await emu.requests(0);
    const seq0 = syncLog.at(-1)?.seq ?? 0;
    const syncBatches = syncLog.filter((e) => e.path.endsWith("/products/batch")).length;
    progress(`synced (${sync.status}, ${syncBatches} batches) in ${round(sync.totalMs / 1000)} s`);

    const { changes, ids, customers } = plan(o);
    const { setAppContext } = await import("../../app/.server/context.server");
    setAppContext(s.web);
    type Action = (a: { request: Request; params: object; context: object }) => Promise<Response>;
    const routes = new Map<string, Action>();
    for (const topic of new Set(changes.flatMap((c) => c.webhooks.map((w) => w.topic)))) {
      routes.set(topic, (await import(`../../app/routes/webhooks.${topic.replace("/", ".")}.tsx`)).action as Action);
    }
    const admin0 = await storeStats(services.store.controlUrl);
    const cpu0 = { web: process.cpuUsage(), workers: cpuMsOf(workers.pid) };

    const acks: number[] = [];
    const byTopic = new Map<string, number>();
    // Per altering change: order id, the status it brings, when its first delivery was acknowledged.
    const altering: { orderId: string; kind: Kind; status: string; ackAt: number }[] = [];
    let non200 = 0;
    const inFlight: Promise<void>[] = [];
    const t0 = performance.now();
    progress(`${changes.length.toLocaleString("en-US")} changes of ${o.orders} orders at ${o.rate}/s`);
    for (let k = 0; k < changes.length; k++) {
      // Pacing: change k is due k/rate seconds after the start.
      const wait = t0 + (k * 1000) / o.rate - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const change = changes[k]!;
      const status = STATUS_AFTER[change.kind];
      const record = status
        ? { orderId: String(ids[change.orderIndex]), kind: change.kind, status, ackAt: Number.POSITIVE_INFINITY }
        : null;
      if (record) altering.push(record);
      for (const w of change.webhooks) {
        bump(byTopic, w.topic);
        const request = signedWebhookRequest({ topic: w.topic, shop: services.store.shop, payload: w.payload });
        const started = performance.now();
        inFlight.push(
          routes.get(w.topic)!({ request, params: {}, context: {} }).then((res) => {
            acks.push(performance.now() - started);
            if (res.status !== 200) non200++;
            else if (record) record.ackAt = Math.min(record.ackAt, Date.now());
          }),
        );
      }
      if ((k + 1) % 500 === 0) progress(`${(k + 1).toLocaleString("en-US")} changes sent`);
    }
    await Promise.all(inFlight);
    const ingressMs = performance.now() - t0;

    const queueBusy = (name: QueueName) => busyJobs(s.web.queues, name);
    // Maintenance holds the shipment news waiting for its grace (ORDER_TRACKING_GRACE_MS).
    await eventually(
      async () =>
        (await queueBusy(QueueName.webhooks)) +
        (await queueBusy(QueueName.maintenance)) +
        (await queueBusy(QueueName.catalog)),
      (n) => n === 0,
      180_000,
    );
    const drainMs = performance.now() - t0 - ingressMs;
    const admin1 = await storeStats(services.store.controlUrl);
    const webCpu = process.cpuUsage(cpu0.web);
    const workersCpu1 = cpuMsOf(workers.pid);
    progress(`ingress ${round(ingressMs / 1000, 1)} s, drained ${round(drainMs / 1000, 2)} s later`);

    // Upstream order requests: POST orders (body.orderId, body.status) and PUT orders/{id} (body.status).
    const log = (await emu.requests(seq0)).filter((e) => e.path === ordersPath || e.path.startsWith(`${ordersPath}/`));
    const kinds = new Map<string, number>();
    const statuses = new Map<string, number>();
    const accepted = new Map<string, { status: string; at: number }[]>();
    for (const e of log) {
      bump(kinds, e.method);
      bump(statuses, String(e.status));
      if (e.status !== 200) continue;
      const body = e.body as { orderId?: string; status?: string };
      const orderId = e.method === "PUT" ? decodeURIComponent(e.path.slice(ordersPath.length + 1)) : body.orderId;
      if (!orderId || !body.status) continue;
      const list = accepted.get(orderId) ?? [];
      list.push({ status: body.status, at: Date.parse(e.at) + (e.durationMs ?? 0) });
      accepted.set(orderId, list);
    }
    // A change is accepted with the first accepted request carrying its status, or a later one: when
    // two changes of one order arrive together, the newer payload may win and the older be dropped
    // (superseded: it needs no request of its own).
    const delays: number[] = [];
    // Slow changes by when they were acknowledged (5 s windows of the run): a stall shows as a cluster.
    const slowByWindow = new Map<string, number>();
    const runStart = Date.now() - (performance.now() - t0);
    const delaysByKind = new Map<Kind, number[]>();
    let never = 0;
    let superseded = 0;
    for (const c of altering) {
      const first = accepted.get(c.orderId)?.find((a) => (STATUS_RANK[a.status] ?? -1) >= STATUS_RANK[c.status]!);
      if (!first || !Number.isFinite(c.ackAt)) {
        never++;
        continue;
      }
      if (first.status !== c.status) superseded++;
      delays.push(first.at - c.ackAt);
      delaysByKind.set(c.kind, [...(delaysByKind.get(c.kind) ?? []), first.at - c.ackAt]);
      if (first.at - c.ackAt > ORDERS_MAX_P95_DELAY_MS)
        bump(slowByWindow, `${Math.floor((c.ackAt - runStart) / 5000) * 5} s`);
    }
    const upstream = new Map(
      (
        (await emu.state(services.emulator.customer)) as unknown as { orders: { orderId: string; status: string }[] }
      ).orders.map((x) => [x.orderId, x.status]),
    );
    const mismatches = ids.filter((id) => upstream.get(String(id)) !== "delivered").length;
    const adminByOperation = new Map<string, number>();
    for (const [op, n] of Object.entries(admin1.byOperation)) {
      const diff = n - (admin0.byOperation[op] ?? 0);
      if (diff) adminByOperation.set(op, diff);
    }
    // Consent reads: one per customer new to the app at most; any further read of a customer is
    // one the cache should have saved (their later orders, every later change of their orders).
    let consentReads = 0;
    let maxPerCustomer = 0;
    let forKnown = 0;
    for (const [gid, n] of Object.entries(admin1.consentReads)) {
      const reads = n - (admin0.consentReads[gid] ?? 0);
      consentReads += reads;
      maxPerCustomer = Math.max(maxPerCustomer, reads);
      forKnown += Math.max(0, reads - 1);
    }
    const knownCustomerOrders = [...customers.values()].reduce((a, n) => a + n - 1, 0);
    if (slowByWindow.size)
      progress(
        `changes over ${ORDERS_MAX_P95_DELAY_MS} ms by second of the run they were acknowledged in: ${tally(slowByWindow)}`,
      );
    workerLog = await workers.stop();
    for (const l of workerLog.lastWarnings) progress(`worker warning: ${l.trim()}`);

    return {
      products: o.products,
      orders: o.orders,
      rate: o.rate,
      initialSync: { status: sync.status, batches: syncBatches, seconds: round(sync.totalMs / 1000, 2) },
      changes: changes.length,
      changesAltering: altering.length,
      webhooks: acks.length,
      webhooksByTopic: tally(byTopic),
      ingressSeconds: round(ingressMs / 1000, 2),
      drainSeconds: round(drainMs / 1000, 2),
      ackP50Ms: round(percentile(acks, 50), 2),
      ackP99Ms: round(percentile(acks, 99), 2),
      non200Acks: non200,
      orderRequests: log.length,
      orderRequestsByKind: tally(kinds),
      orderRequestStatuses: tally(statuses),
      requestsPerChange: round(log.length / altering.length, 3),
      delayP50Ms: round(percentile(delays, 50), 0),
      delayP95Ms: round(percentile(delays, 95), 0),
      delayMaxMs: round(Math.max(...delays), 0),
      changesNeverAccepted: never,
      changesSuperseded: superseded,
      delayP95ByKind: [...delaysByKind].map(([k, d]) => `${k} ${round(percentile(d, 95), 0)}`).join(", "),
      finalStatusMismatches: mismatches,
      adminCallsDuringRun: admin1.graphqlRequests - admin0.graphqlRequests,
      adminCallsByOperation: tally(adminByOperation),
      adminCallsBesidesConsent: admin1.graphqlRequests - admin0.graphqlRequests - consentReads,
      newCustomers: customers.size,
      knownCustomerOrders,
      consentReads,
      consentReadsMaxPerCustomer: maxPerCustomer,
      consentReadsForKnownCustomers: forKnown,
      workerCpuMsPerWebhook:
        cpu0.workers !== null && workersCpu1 !== null ? round((workersCpu1 - cpu0.workers) / acks.length, 2) : null,
      webCpuMsPerWebhook: round((webCpu.user + webCpu.system) / 1000 / acks.length, 2),
      warnings: s.sink.count + workerLog.warnings,
    };
  } finally {
    if (!workerLog) await workers.stop().catch(() => undefined);
    await s.close();
  }
}

// ---------- in the orchestrator ----------

export async function runOrderSyncBench(o: {
  products: number;
  orders: number;
  rate: number;
  seed: number;
}): Promise<BenchResult[]> {
  console.log(
    `order sync: ${o.orders.toLocaleString("en-US")} orders over ${o.products.toLocaleString("en-US")} products: starting emulator and simulated store`,
  );
  const emu = await startEmulatorChild();
  const store = await startStoreChild({ products: o.products, seed: o.seed, shop: ORDERS_SHOP });
  let f: OrderFigures;
  try {
    const services: Services = { emulator: emu.info, store: store.info };
    f = await runChild<OrderFigures>(
      [
        "--child",
        "orders",
        "--products",
        String(o.products),
        "--orders",
        String(o.orders),
        "--rate",
        String(o.rate),
        "--seed",
        String(o.seed),
        "--services",
        JSON.stringify(services),
      ],
      "orders",
    );
  } finally {
    await store.stop();
    await emu.stop();
  }
  console.log(
    `  → ${f.requestsPerChange} order requests per change, ack→accepted p95 ${f.delayP95Ms} ms, ${f.adminCallsDuringRun} Admin API calls (${f.consentReads} consent reads for ${f.newCustomers} new customers)`,
  );
  return [
    {
      scenario: `order sync (${f.changesAltering.toLocaleString("en-US")} order changes over ${f.orders.toLocaleString("en-US")} orders, mirror warm)`,
      figures: {
        "initial catalog sync": `${f.initialSync.status}, ${f.initialSync.batches} batches, ${f.initialSync.seconds} s (${f.products.toLocaleString("en-US")} products)`,
        "changes paced at (per second)": f.rate,
        "changes altering the mapped order (place, pay, ship, deliver)": f.changesAltering,
        "changes altering nothing mapped (tag edits)": f.changes - f.changesAltering,
        "webhooks delivered": f.webhooks,
        "webhooks by topic": f.webhooksByTopic,
        "ingress duration (s)": f.ingressSeconds,
        "drained after ingress (s)": f.drainSeconds,
        "ack latency p50 (ms)": f.ackP50Ms,
        "ack latency p99 (ms)": f.ackP99Ms,
        "non-200 acks": f.non200Acks,
        "upstream order requests": f.orderRequests,
        "upstream order requests by method": f.orderRequestsByKind,
        "upstream order request statuses": f.orderRequestStatuses,
        "upstream order requests per altering change": f.requestsPerChange,
        "change ack → accepted p50 (ms)": f.delayP50Ms,
        "change ack → accepted p95 (ms)": f.delayP95Ms,
        "change ack → accepted max (ms)": f.delayMaxMs,
        "change ack → accepted p95 by change (ms)": f.delayP95ByKind,
        "changes accepted only through a newer state (superseded)": f.changesSuperseded,
        "changes never accepted": f.changesNeverAccepted,
        "orders not delivered upstream at the end": f.finalStatusMismatches,
        "Admin API calls during the run": f.adminCallsDuringRun,
        "Admin API calls by operation": f.adminCallsByOperation,
        "customers new to the app (first order in the run)": f.newCustomers,
        "orders of customers already known (a customer's later orders)": f.knownCustomerOrders,
        "consent reads (CustomerConsent)": f.consentReads,
        "Admin API calls per new customer": round(f.consentReads / Math.max(1, f.newCustomers), 3),
        "Admin API calls per new customer, most for one customer": f.consentReadsMaxPerCustomer,
        "Admin API calls for known customers (reads beyond a customer's first)": f.consentReadsForKnownCustomers,
        "Admin API calls besides consent reads": f.adminCallsBesidesConsent,
        "worker process CPU per webhook (ms)": f.workerCpuMsPerWebhook ?? "n/a",
        "web process CPU per webhook, signing included (ms)": f.webCpuMsPerWebhook,
        "warnings logged": f.warnings,
      },
      targets: {
        "order change ack → accepted p95 (ms)": atMost(f.delayP95Ms, ORDERS_MAX_P95_DELAY_MS),
        // One request per change, except a change superseded by a newer one of its order before it was sent.
        "upstream order requests − altering changes not superseded": exactly(
          f.orderRequests - (f.changesAltering - f.changesSuperseded),
          0,
        ),
        "Admin API calls with a warm mirror, besides consent reads": exactly(f.adminCallsBesidesConsent, 0),
        "Admin API calls per new customer (most for one customer)": atMost(f.consentReadsMaxPerCustomer, 1),
        "Admin API calls for known customers": exactly(f.consentReadsForKnownCustomers, 0),
        "order changes never accepted": exactly(f.changesNeverAccepted, 0),
      },
    },
  ];
}
