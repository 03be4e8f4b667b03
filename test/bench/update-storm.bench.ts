import { generateProduct, productWebhookPayload, type ShopifyProductNode } from "../../sandbox/simulated-store";
import { productKey } from "../../app/.server/mapping/keys";
import { QueueName } from "../../app/.server/queues/names";
import { eventually } from "../helpers/contexts";
import { signedWebhookRequest } from "../helpers/webhooks";
import { busyJobs, runFullSync, startBenchStack, type Services } from "./bench-stack";
import { emulatorControl, runChild, startEmulatorChild, startServiceChild, startStoreChild } from "./children";
import { percentile, pool, progress, round, seededRandom } from "./measure";
import { atMost, type BenchResult } from "./report";

// Scenario "update storm": a store of P products, fully synced, then D signed products/update
// deliveries over them, delivered through the real route module as fast as the ingress takes them
// (C in flight). 70% change nothing the service sees (inventory and price); 30% change the title,
// after the change was made in the store (a re-read of the product then sees it, as on Shopify).
// Measured: batch requests the storm caused, the delay from a title change's acknowledgement to
// the first accepted batch that carries that title (or a newer one of the same product: coalescing
// may skip a title that was superseded inside the window), and the ingress acknowledgement latency.

export const STORM_SHOP = "bench-storm.myshopify.com";
const CHANGING_SHARE = 0.3;
const CONCURRENCY = 8;
const TITLE_REV = / r(\d+)$/;

export interface StormFigures {
  products: number;
  deliveries: number;
  changing: number;
  concurrency: number;
  flushWindowMs: number;
  flushMaxWaitMs: number;
  initialSync: { status: string; batches: number; failed: number; seconds: number };
  ingressSeconds: number;
  deliveriesPerSecond: number;
  ackP50Ms: number;
  ackP99Ms: number;
  ackMaxMs: number;
  non200Acks: number;
  drainSeconds: number;
  batchRequests: number;
  batchRequestsDuringIngress: number;
  batchItemsP50: number;
  batchItemsMax: number;
  batchStatuses: string;
  itemsSent: number;
  itemsWithoutTitleChange: number;
  delayP50Ms: number;
  delayP95Ms: number;
  delayMaxMs: number;
  changesNeverAccepted: number;
  changesSuperseded: number;
  finalTitleMismatches: number;
  warnings: number;
}

interface Delivery {
  index: number;
  /** Title revision this delivery carries; > the product's previous one when it changes the title. */
  rev: number;
  changing: boolean;
  payload: Record<string, unknown>;
}

/** The workload: the same for a given seed. */
function plan(
  products: ShopifyProductNode[],
  deliveries: number,
  seed: number,
): { list: Delivery[]; finalRev: number[] } {
  const random = seededRandom(seed);
  const changing = Array.from({ length: deliveries }, (_, i) => i < Math.round(deliveries * CHANGING_SHARE));
  for (let i = changing.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [changing[i], changing[j]] = [changing[j], changing[i]];
  }
  const rev = products.map(() => 0);
  const list = changing.map((changes, i) => {
    const index = Math.floor(random() * products.length);
    const base = products[index];
    if (changes) rev[index]++;
    const node: ShopifyProductNode = {
      ...base,
      title: rev[index] ? `${base.title} r${rev[index]}` : base.title,
      updatedAt: new Date(Date.parse(base.updatedAt) + (i + 1) * 1000).toISOString(),
      // What the mapped payload leaves out: inventory moves on every delivery, price on some.
      variants: base.variants.map((v) => ({
        ...v,
        inventoryQuantity: v.inventoryQuantity + ((i * 7) % 23) - 11,
        price: changes || i % 3 ? v.price : `${Number.parseFloat(v.price) + 1}.00`,
      })),
    };
    return { index, rev: rev[index], changing: changes, payload: productWebhookPayload(node) };
  });
  return { list, finalRev: rev };
}

// ---------- inside the measured child ----------

export async function stormChild(o: {
  products: number;
  deliveries: number;
  seed: number;
  services: Services;
}): Promise<StormFigures> {
  const { services } = o;
  const s = await startBenchStack("bench-storm", services, { workers: false });
  const emu = emulatorControl(services.emulator.origin);
  const batchPath = `/api/${services.emulator.customer}/products/batch`;
  // This process is the web process (the route module); the workers run in a process of their own.
  const workers = await startServiceChild<{ warnings: number; lastWarnings: string[] }>(
    ["--child", "workers", "--services", JSON.stringify(services), "--database-url", s.t.url, "--prefix", s.prefix],
    "workers",
  );
  let workerLog: { warnings: number; lastWarnings: string[] } | undefined;
  try {
    progress(`full sync of ${o.products} products first`);
    const sync = await runFullSync(s, 180_000);
    const syncLog = await emu.requests(0);
    const seq0 = syncLog.at(-1)?.seq ?? 0;
    const syncBatches = syncLog.filter((e) => e.path === batchPath).length;
    progress(
      `synced (${sync.status}, ${syncBatches} batches, ${sync.progress.failed} failed) in ${round(sync.totalMs / 1000)} s`,
    );

    const products = Array.from({ length: o.products }, (_, i) => generateProduct(i, o.seed));
    const { list, finalRev } = plan(products, o.deliveries, o.seed);
    const { setAppContext } = await import("../../app/.server/context.server");
    setAppContext(s.web);
    const { action } = await import("../../app/routes/webhooks.products.update");

    const acks: number[] = [];
    const changes: { sku: string; rev: number; ackAt: number }[] = [];
    let non200 = 0;
    let done = 0;
    const t0 = performance.now();
    progress(`delivering ${o.deliveries.toLocaleString("en-US")} products/update (${CONCURRENCY} in flight)`);
    await pool(list.length, CONCURRENCY, async (i) => {
      const d = list[i];
      const product = products[d.index];
      if (d.changing) {
        // The merchant's edit reaches the store before Shopify sends the webhook.
        const res = await fetch(services.store.controlUrl, {
          method: "POST",
          body: JSON.stringify({ id: product.id, patch: { title: d.payload.title } }),
        });
        if (res.status !== 204) throw new Error(`store update failed: ${res.status} ${await res.text()}`);
      }
      const request = signedWebhookRequest({ topic: "products/update", shop: services.store.shop, payload: d.payload });
      const started = performance.now();
      const res = await action({ request, params: {}, context: {} });
      acks.push(performance.now() - started);
      if (res.status !== 200) non200++;
      if (d.changing) changes.push({ sku: productKey(product.id), rev: d.rev, ackAt: Date.now() });
      if (++done % 1000 === 0)
        progress(
          `${done.toLocaleString("en-US")} delivered, ${Math.round((done * 1000) / (performance.now() - t0))}/s`,
        );
    });
    const ingressMs = performance.now() - t0;
    const ingressEndedAt = Date.now();

    // Drained: every delivery processed, nothing waiting for a flush, no flush running.
    const queueBusy = (name: QueueName) => busyJobs(s.web.queues, name);
    await eventually(
      async () =>
        (await queueBusy(QueueName.webhooks)) +
        (await queueBusy(QueueName.catalog)) +
        (await s.pending.pendingCount(s.shopId)),
      (n) => n === 0,
      Math.max(180_000, o.deliveries * 30),
    );
    const drainMs = performance.now() - t0 - ingressMs;
    progress(`ingress ${round(ingressMs / 1000, 2)} s, drained ${round(drainMs / 1000, 2)} s later`);

    // What the service accepted, per product: the title revisions in order of acceptance.
    const log = (await emu.requests(seq0)).filter((e) => e.path === batchPath);
    const statuses = new Map<number, number>();
    const accepted = new Map<string, { rev: number; at: number }[]>();
    let items = 0;
    let itemsWithoutTitleChange = 0;
    const sizes: number[] = [];
    const lastRev = new Map<string, number>();
    for (const e of log) {
      statuses.set(e.status ?? -1, (statuses.get(e.status ?? -1) ?? 0) + 1);
      if (e.status !== 200) continue;
      const batch = (e.body as { products: { sku: string; name?: string }[] }).products;
      sizes.push(batch.length);
      for (const p of batch) {
        const rev = Number(TITLE_REV.exec(p.name ?? "")?.[1] ?? 0);
        items++;
        if ((lastRev.get(p.sku) ?? 0) === rev) itemsWithoutTitleChange++;
        lastRev.set(p.sku, rev);
        const list = accepted.get(p.sku) ?? [];
        list.push({ rev, at: Date.parse(e.at) });
        accepted.set(p.sku, list);
      }
    }
    const delays: number[] = [];
    let never = 0;
    let superseded = 0;
    for (const c of changes) {
      const first = accepted.get(c.sku)?.find((a) => a.rev >= c.rev);
      if (!first) {
        never++;
        continue;
      }
      if (first.rev > c.rev) superseded++;
      delays.push(first.at - c.ackAt);
    }
    const upstream = new Map((await emu.state(services.emulator.customer)).products.map((p) => [p.sku, p.name ?? ""]));
    const mismatches = products.filter(
      (p, i) => upstream.get(productKey(p.id)) !== (finalRev[i] ? `${p.title} r${finalRev[i]}` : p.title),
    ).length;
    workerLog = await workers.stop();
    for (const l of workerLog.lastWarnings) progress(`worker warning: ${l.trim()}`);

    return {
      products: o.products,
      deliveries: list.length,
      changing: changes.length,
      concurrency: CONCURRENCY,
      flushWindowMs: s.config.CATALOG_FLUSH_WINDOW_MS,
      flushMaxWaitMs: s.config.CATALOG_FLUSH_MAX_WAIT_MS,
      initialSync: {
        status: sync.status,
        batches: syncBatches,
        failed: sync.progress.failed,
        seconds: round(sync.totalMs / 1000, 2),
      },
      ingressSeconds: round(ingressMs / 1000, 2),
      deliveriesPerSecond: round((list.length * 1000) / ingressMs, 0),
      ackP50Ms: round(percentile(acks, 50), 2),
      ackP99Ms: round(percentile(acks, 99), 2),
      ackMaxMs: round(Math.max(...acks), 2),
      non200Acks: non200,
      drainSeconds: round(drainMs / 1000, 2),
      batchRequests: log.length,
      batchRequestsDuringIngress: log.filter((e) => Date.parse(e.at) <= ingressEndedAt).length,
      batchItemsP50: percentile(sizes, 50),
      batchItemsMax: sizes.length ? Math.max(...sizes) : 0,
      batchStatuses:
        [...statuses.entries()]
          .sort(([a], [b]) => a - b)
          .map(([st, n]) => `${st}×${n}`)
          .join(", ") || "none",
      itemsSent: items,
      itemsWithoutTitleChange,
      delayP50Ms: round(percentile(delays, 50), 0),
      delayP95Ms: round(percentile(delays, 95), 0),
      delayMaxMs: round(Math.max(...delays), 0),
      changesNeverAccepted: never,
      changesSuperseded: superseded,
      finalTitleMismatches: mismatches,
      warnings: s.sink.count + workerLog.warnings,
    };
  } finally {
    if (!workerLog) await workers.stop().catch(() => undefined);
    await s.close();
  }
}

// ---------- in the orchestrator ----------

export const STORM_MAX_BATCHES = 10;
export const STORM_MAX_P95_DELAY_MS = 5000;

export async function runUpdateStormBench(o: {
  products: number;
  deliveries: number;
  seed: number;
}): Promise<BenchResult[]> {
  console.log(
    `update storm: ${o.deliveries.toLocaleString("en-US")} deliveries over ${o.products.toLocaleString("en-US")} products: starting emulator and simulated store`,
  );
  const emu = await startEmulatorChild();
  const store = await startStoreChild({ products: o.products, seed: o.seed, shop: STORM_SHOP });
  let f: StormFigures;
  try {
    const services: Services = { emulator: emu.info, store: store.info };
    f = await runChild<StormFigures>(
      [
        "--child",
        "storm",
        "--products",
        String(o.products),
        "--deliveries",
        String(o.deliveries),
        "--seed",
        String(o.seed),
        "--services",
        JSON.stringify(services),
      ],
      "storm",
    );
  } finally {
    await store.stop();
    await emu.stop();
  }
  console.log(
    `  → ${f.batchRequests} batch requests, change→accepted p95 ${f.delayP95Ms} ms, ack p50 ${f.ackP50Ms} ms / p99 ${f.ackP99Ms} ms`,
  );
  return [
    {
      scenario: `update storm (${f.deliveries.toLocaleString("en-US")} deliveries over ${f.products.toLocaleString("en-US")} products)`,
      figures: {
        [`CATALOG_FLUSH_WINDOW_MS${process.env.CATALOG_FLUSH_WINDOW_MS ? " (from the environment)" : " (default)"}`]:
          f.flushWindowMs,
        [`CATALOG_FLUSH_MAX_WAIT_MS${process.env.CATALOG_FLUSH_MAX_WAIT_MS ? " (from the environment)" : " (default)"}`]:
          f.flushMaxWaitMs,
        "initial sync": `${f.initialSync.status}, ${f.initialSync.batches} batches, ${f.initialSync.failed} failed, ${f.initialSync.seconds} s`,
        deliveries: f.deliveries,
        "deliveries changing the title": f.changing,
        "deliveries changing nothing mapped (inventory/price)": f.deliveries - f.changing,
        "deliveries in flight": f.concurrency,
        "ingress duration (s)": f.ingressSeconds,
        "deliveries per second": f.deliveriesPerSecond,
        "ack latency p50 (ms)": f.ackP50Ms,
        "ack latency p99 (ms)": f.ackP99Ms,
        "ack latency max (ms)": f.ackMaxMs,
        "non-200 acks": f.non200Acks,
        "drained after ingress (s)": f.drainSeconds,
        "webhook processing rate, first delivery → drained (deliveries/s)": round(
          f.deliveries / (f.ingressSeconds + f.drainSeconds),
          0,
        ),
        "batch requests sent": f.batchRequests,
        "batch request statuses": f.batchStatuses,
        "batch requests while deliveries were arriving": f.batchRequestsDuringIngress,
        "products per accepted batch, p50": f.batchItemsP50,
        "products per accepted batch, max": f.batchItemsMax,
        "products in accepted batches": f.itemsSent,
        "of which without a title change": f.itemsWithoutTitleChange,
        "change ack → accepted p50 (ms)": f.delayP50Ms,
        "change ack → accepted p95 (ms)": f.delayP95Ms,
        "change ack → accepted max (ms)": f.delayMaxMs,
        "changes accepted only through a newer title (coalesced)": f.changesSuperseded,
        "changes never accepted": f.changesNeverAccepted,
        "products whose final title upstream is not the newest": f.finalTitleMismatches,
        "warnings logged": f.warnings,
      },
      targets: {
        "batch requests (naive: one per delivery)": atMost(f.batchRequests, STORM_MAX_BATCHES),
        "change ack → accepted p95 (ms)": atMost(f.delayP95Ms, STORM_MAX_P95_DELAY_MS),
        "changes never accepted": atMost(f.changesNeverAccepted, 0),
      },
    },
  ];
}
