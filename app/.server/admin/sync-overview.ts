import type { AppContext } from "../context.server";
import { allQueueNames, lastHeartbeat } from "../queues";
import { createProductMirror, requestProductFetch } from "../catalog";
import { createSyncRuns, parseProgress, type SyncKind, startSync } from "../sync";
import { createAddressRefusals } from "../shopify";
import { createResendLedger } from "../resend";

// The Sync page: the state of the shop's catalog and orders at the service, its runs, what the
// service refused and why, and whether the background work is moving (queue depth, worker alive).
// The same repositories and queues the CLI's `sync` commands and the workers use.

const REFUSED_ROWS = 50;

type RunRow = {
  id: string;
  kind: string;
  status: string;
  progress: string;
  error: string | null;
  startedAt: Date;
  finishedAt: Date | null;
  readPath?: string | null;
  readPathReason?: string | null;
};

function runView(run: RunRow | null) {
  if (!run) return null;
  return {
    id: run.id,
    kind: run.kind,
    status: run.status,
    progress: parseProgress(run.progress),
    error: run.error,
    startedAt: run.startedAt.toISOString(),
    finishedAt: run.finishedAt?.toISOString() ?? null,
    // How the run read Shopify (bulk, or paged when bulk operations were refused) and why.
    readPath: run.readPath === "bulk" || run.readPath === "paged" ? run.readPath : null,
    readPathReason: run.readPathReason ?? null,
  };
}

export async function syncOverview(ctx: AppContext, domain: string) {
  const shop = await ctx.shops.ensure(domain);
  const runs = createSyncRuns(ctx.db);
  const mirror = createProductMirror(ctx.db);
  const [
    catalog,
    orders,
    recent,
    counts,
    pending,
    refusedProducts,
    refusedOrders,
    ordersSent,
    ordersFailed,
    depth,
    heartbeat,
  ] = await Promise.all([
    runs.latest(shop.id, "catalog"),
    runs.latest(shop.id, "orders"),
    ctx.db.syncRun.findMany({ where: { shopId: shop.id }, orderBy: { startedAt: "desc" }, take: 10 }),
    mirror.counts(shop.id),
    ctx.db.productMirror.count({ where: { shopId: shop.id, status: "pending" } }),
    mirror.errors(shop.id, REFUSED_ROWS),
    ctx.db.orderState.findMany({
      where: { shopId: shop.id, error: { not: null } },
      orderBy: { errorAt: "desc" },
      take: REFUSED_ROWS,
      select: { orderId: true, error: true, errorAt: true },
    }),
    ctx.db.orderState.count({ where: { shopId: shop.id, sentAt: { not: null } } }),
    ctx.db.orderState.count({ where: { shopId: shop.id, error: { not: null } } }),
    queueDepth(ctx),
    lastHeartbeat(ctx.queues.redis, ctx.config.REDIS_PREFIX).catch(() => null),
  ]);
  const refused = await createAddressRefusals(ctx.queues.redis, ctx.config.REDIS_PREFIX)
    .get(shop.domain)
    .catch(() => null);
  const resend = await createResendLedger(ctx.queues.redis, ctx.config.REDIS_PREFIX)
    .report(shop.id)
    .catch(() => null);
  const status = await ctx.shops.status(shop.domain);
  return {
    connected: status.connected,
    catalog: runView(catalog),
    orders: runView(orders),
    recent: recent.map((r) => runView(r)!),
    products: { synced: counts.synced, failed: counts.failed, pending },
    ordersKnown: { sent: ordersSent, failed: ordersFailed },
    refusedProducts: {
      total: refusedProducts.total,
      rows: refusedProducts.rows.map((r) => ({
        productId: r.productId,
        sku: r.sku,
        error: r.error ?? "",
        at: r.errorAt?.toISOString() ?? null,
      })),
    },
    refusedOrders: refusedOrders.map((o) => ({
      orderId: o.orderId,
      error: o.error ?? "",
      at: o.errorAt?.toISOString() ?? null,
    })),
    queueDepth: depth,
    worker: heartbeat ? { secondsAgo: Math.max(0, Math.round((Date.now() - heartbeat.at) / 1000)) } : null,
    // Shopify refuses this server's address (IP allowlist): work is paused until a probe passes.
    // What the app sent again because the service no longer knew it (app/.server/resend/).
    resend: resend ? { ...resend, windowHours: Math.round(ctx.config.RESEND_WINDOW_MS / 3_600_000) } : null,
    addressRefused: refused
      ? {
          since: refused.since.toISOString(),
          detail: refused.detail,
          nextProbeAt: refused.nextProbeAt?.toISOString() ?? null,
        }
      : null,
  };
}

/**
 * Jobs waiting or running in every queue (the deployment's, not one shop's: queues are shared), and
 * those scheduled for later apart: an idle app always has its next polls and retries delayed, which
 * are no work waiting.
 */
async function queueDepth(ctx: AppContext): Promise<{ waiting: number; scheduled: number } | null> {
  try {
    await ctx.queues.ready(1000);
    const counts = await Promise.all(
      allQueueNames.map((name) => ctx.queues.get(name).getJobCounts("waiting", "active", "delayed", "prioritized")),
    );
    return counts.reduce<{ waiting: number; scheduled: number }>(
      (sum, c) => ({
        waiting: sum.waiting + (c.waiting ?? 0) + (c.active ?? 0) + (c.prioritized ?? 0),
        scheduled: sum.scheduled + (c.delayed ?? 0),
      }),
      { waiting: 0, scheduled: 0 },
    );
  } catch {
    return null;
  }
}

/** "Sync everything now": a full catalog sync and an orders reconciliation (joining any under way). */
export async function syncEverything(ctx: AppContext, domain: string) {
  const shop = await ctx.shops.get(domain);
  const started: Record<SyncKind, string> = { catalog: "", orders: "" };
  for (const kind of ["catalog", "orders"] as const)
    started[kind] = (await startSync({ db: ctx.db, queues: ctx.queues }, shop.id, kind)).run.id;
  return started;
}

/**
 * Sends refused products again: each is read from Shopify afresh and staged like a products/update.
 * Only products this shop's mirror holds as refused: an id of another shop's, or a made-up one, is
 * ignored.
 */
export async function retryRefusedProducts(
  ctx: AppContext,
  domain: string,
  productIds: string[] | "all",
): Promise<number> {
  const shop = await ctx.shops.get(domain);
  const rows = await ctx.db.productMirror.findMany({
    where: { shopId: shop.id, status: "failed", ...(productIds === "all" ? {} : { productId: { in: productIds } }) },
    select: { productId: true },
    take: 1000,
  });
  await requestProductFetch(
    ctx,
    shop,
    rows.map((r) => r.productId),
  );
  return rows.length;
}
