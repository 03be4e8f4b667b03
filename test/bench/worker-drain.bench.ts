import { OrderBook, generateProduct, productWebhookPayload, type OrderWebhook } from "../../sandbox/simulated-store";
import { QueueName } from "../../app/.server/queues/names";
import { signedWebhookRequest } from "../helpers/webhooks";
import { busyJobs, runFullSync, startBenchStack, type Services } from "./bench-stack";
import { cpuSecondsOf, runChild, startEmulatorChild, startServiceChild, startStoreChild } from "./children";
import { pool, progress, round } from "./measure";
import { atLeast, type BenchResult } from "./report";

// Scenario "drain": how fast worker processes empty the webhooks queue. A store of P products is
// synced first (the mirror is warm, as in a running shop); then, with no worker running, D signed
// deliveries of mixed topics are stored through the real route modules (the ingress); then K worker
// processes (`--child workers`, the real processors) start at once and the clock runs from their
// ready lines until no webhook job is waiting or active. K = 1, then K = 2 on a fresh batch of the
// same mix: new orders (an order's change seen twice is a no-op, which would flatter the second
// round) and product edits that move each product's title on. Downstream work the deliveries cause
// (catalog flushes) is reported beside it, not counted in the drain. Last, a worker process whose
// processor does nothing per job (`--child noop-workers`, BullMQ with the real worker's options)
// drains a fresh batch of the same mix: BullMQ's own ceiling on this box in the same run, and the
// real worker's rate as a share of it.

export const DRAIN_SHOP = "bench-drain.myshopify.com";
export const DRAIN_TARGET_PER_SECOND = 1_000;
export const DRAIN_SCALING_TARGET = 1.8;
const PRODUCT_SHARE = 0.7;
const INGRESS_CONCURRENCY = 16;

export interface DrainRound {
  workers: number;
  /** The round of the worker that does nothing per job (BullMQ's ceiling). */
  noop?: boolean;
  deliveries: number;
  byTopic: Record<string, number>;
  fillSeconds: number;
  drainSeconds: number;
  perSecond: number;
  settledSeconds: number;
  failedJobs: number;
  workerCpuSeconds: number;
  warnings: number;
}

/** Round r's deliveries: placed, paid and shipped orders new to the app, and product edits. */
function deliveries(o: { products: number; deliveries: number; seed: number; round: number }) {
  const orderShare = 1 - PRODUCT_SHARE;
  const book = new OrderBook({ seed: o.seed, productCount: o.products, count: (o.round + 1) * 1_000_000 });
  const orderHooks: OrderWebhook[] = [];
  const at = (k: number) => new Date(Date.now() - 3_600_000 + k * 1000);
  for (let i = 0; orderHooks.length < o.deliveries * orderShare; i++) {
    const placed = book.place({ lines: [{ productIndex: i % o.products }], financialStatus: "PENDING", at: at(i) });
    const id = placed.order.id;
    orderHooks.push(
      ...placed.webhooks,
      ...book.pay(id, at(i + 1)).webhooks,
      ...book.fulfil(id, { at: at(i + 2) }).webhooks,
    );
  }
  const list: { topic: string; payload: unknown }[] = [];
  let order = 0;
  for (let k = 0; k < o.deliveries; k++) {
    if (order < orderHooks.length && k % 10 >= PRODUCT_SHARE * 10) {
      const w = orderHooks[order++]!;
      list.push({ topic: w.topic, payload: w.payload });
    } else {
      const product = productWebhookPayload(generateProduct(k % o.products, o.seed));
      const updatedAt = new Date(Date.now() + o.round * 3_600_000 + k).toISOString();
      list.push({
        topic: "products/update",
        payload: { ...product, title: `${product.title as string} r${o.round}-${k}`, updated_at: updatedAt },
      });
    }
  }
  return list;
}

export async function drainChild(o: {
  products: number;
  deliveries: number;
  workers: number[];
  seed: number;
  services: Services;
}): Promise<DrainRound[]> {
  const { services } = o;
  const s = await startBenchStack("bench-drain", services, { workers: false });
  const childArgs = (kind: string) => [
    "--child",
    kind,
    "--services",
    JSON.stringify(services),
    "--database-url",
    s.t.url,
    "--prefix",
    s.prefix,
  ];
  const workerArgs = childArgs("workers");
  const rounds: DrainRound[] = [];
  try {
    progress(`full sync of ${o.products} products first (the mirror the deliveries are read against)`);
    const syncer = await startServiceChild<{ warnings: number }>(workerArgs, "workers");
    const sync = await runFullSync(s, 180_000);
    await syncer.stop();
    progress(`synced (${sync.status}) in ${round(sync.totalMs / 1000)} s`);

    const { setAppContext } = await import("../../app/.server/context.server");
    setAppContext(s.web);
    type Action = (a: { request: Request; params: object; context: object }) => Promise<Response>;
    const routes = new Map<string, Action>();
    const queue = s.web.queues.get(QueueName.webhooks);
    const busy = (name: QueueName) => busyJobs(s.web.queues, name);

    const plan = [...o.workers.map((k) => ({ k, noop: false })), { k: 1, noop: true }];
    for (const [r, { k, noop }] of plan.entries()) {
      const list = deliveries({ products: o.products, deliveries: o.deliveries, seed: o.seed, round: r });
      const byTopic: Record<string, number> = {};
      for (const d of list) byTopic[d.topic] = (byTopic[d.topic] ?? 0) + 1;
      for (const topic of Object.keys(byTopic))
        if (!routes.has(topic))
          routes.set(
            topic,
            (await import(`../../app/routes/webhooks.${topic.replace("/", ".")}.tsx`)).action as Action,
          );
      const failedBefore = await queue.getFailedCount();
      const fillStarted = performance.now();
      await pool(list.length, INGRESS_CONCURRENCY, async (i) => {
        const d = list[i]!;
        const request = signedWebhookRequest({ topic: d.topic, shop: services.store.shop, payload: d.payload });
        const res = await routes.get(d.topic)!({ request, params: {}, context: {} });
        if (res.status !== 200) throw new Error(`delivery ${i} (${d.topic}) answered ${res.status}`);
      });
      const fillSeconds = (performance.now() - fillStarted) / 1000;
      const waiting = await busy(QueueName.webhooks);
      progress(
        `round ${r + 1}: ${waiting} deliveries stored in ${round(fillSeconds, 1)} s; starting ${k} worker process(es)`,
      );

      const workers = await Promise.all(
        Array.from({ length: k }, (_, i) =>
          startServiceChild<{ warnings: number }>(
            noop ? childArgs("noop-workers") : workerArgs,
            noop ? "worker doing nothing" : `worker ${i + 1}`,
          ),
        ),
      );
      const t0 = performance.now();
      const cpu0 = workers.map((w) => cpuSecondsOf(w.pid));
      // Polled, not awaited on an event: the figure is the drain's wall time, read to ~20 ms.
      let drained = 0;
      for (let last = waiting; last > 0;) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        last = await busy(QueueName.webhooks);
        if (last === 0) drained = performance.now();
      }
      const drainSeconds = (drained - t0) / 1000;
      const workerCpuSeconds = workers.reduce((sum, w, i) => sum + cpuSecondsOf(w.pid) - cpu0[i]!, 0);
      // The catalog flushes the product edits caused: reported, not part of the drain.
      for (let last = 1; last > 0;) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        last = (await busy(QueueName.catalog)) + (await s.pending.pendingCount(s.shopId));
      }
      const settledSeconds = (performance.now() - t0) / 1000;
      const logs = await Promise.all(workers.map((w) => w.stop()));
      const perSecond = Math.round(list.length / drainSeconds);
      progress(`round ${r + 1}: ${k} worker(s) drained ${list.length} in ${round(drainSeconds, 2)} s: ${perSecond}/s`);
      rounds.push({
        workers: k,
        noop,
        deliveries: list.length,
        byTopic,
        fillSeconds: round(fillSeconds, 1),
        drainSeconds: round(drainSeconds, 2),
        perSecond,
        settledSeconds: round(settledSeconds, 2),
        failedJobs: (await queue.getFailedCount()) - failedBefore,
        workerCpuSeconds: round(workerCpuSeconds, 1),
        warnings: logs.reduce((n, l) => n + l.warnings, 0),
      });
    }
  } finally {
    await s.close();
  }
  return rounds;
}

export async function runDrainBench(o: { products: number; deliveries: number; seed: number }): Promise<BenchResult[]> {
  console.log(
    `worker drain: ${o.deliveries.toLocaleString("en-US")} mixed deliveries over ${o.products.toLocaleString("en-US")} products, one worker process then two`,
  );
  const emu = await startEmulatorChild();
  const store = await startStoreChild({ products: o.products, seed: o.seed, shop: DRAIN_SHOP });
  let rounds: DrainRound[];
  try {
    const services: Services = { emulator: emu.info, store: store.info };
    rounds = await runChild<DrainRound[]>(
      [
        "--child",
        "drain",
        "--products",
        String(o.products),
        "--deliveries",
        String(o.deliveries),
        "--seed",
        String(o.seed),
        "--services",
        JSON.stringify(services),
      ],
      "drain",
    );
  } finally {
    await store.stop();
    await emu.stop();
  }
  const [one, two] = rounds.filter((x) => !x.noop);
  const ceiling = rounds.find((x) => x.noop)!;
  const scaling = round(two!.perSecond / one!.perSecond, 2);
  const row = (f: (x: DrainRound) => string | number) => rounds.map(f).join(" | ");
  return [
    {
      scenario: `worker drain (${o.deliveries.toLocaleString("en-US")} deliveries, mixed topics)`,
      figures: {
        products: o.products,
        "deliveries per round": o.deliveries,
        topics: Object.entries(one!.byTopic)
          .sort(([, a], [, b]) => b - a)
          .map(([t, n]) => `${t} ${n}`)
          .join(", "),
        columns: "1 worker process | 2 worker processes | 1 worker doing nothing per job (BullMQ's ceiling)",
        "stored first, through the routes (s)": row((x) => x.fillSeconds),
        "drain: workers ready → webhooks queue empty (s)": row((x) => x.drainSeconds),
        "deliveries per second": row((x) => x.perSecond),
        "catalog flushes settled too (s)": row((x) => x.settledSeconds),
        "worker CPU, all processes (s)": row((x) => x.workerCpuSeconds),
        "worker CPU per delivery (ms)": row((x) => round((x.workerCpuSeconds * 1000) / x.deliveries, 2)),
        "failed jobs": row((x) => x.failedJobs),
        "warnings logged": row((x) => x.warnings),
        "two processes ÷ one": scaling,
        "one worker ÷ BullMQ's ceiling (same run)": round(one!.perSecond / ceiling.perSecond, 2),
        note: "2 cores shared by the workers, Redis, the emulator, the simulated store and this process",
      },
      targets: {
        "one worker process drains ≥ 1,000 deliveries/s": atLeast(one!.perSecond, DRAIN_TARGET_PER_SECOND),
        "two worker processes ≥ 1.8× one": atLeast(scaling, DRAIN_SCALING_TARGET),
      },
    },
  ];
}
