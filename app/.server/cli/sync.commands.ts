import { defineCommand, UsageError, type CliIo } from "./command";
import type { CliContext } from "./cli-context";
import { usageFrom, withContext } from "./shop.commands";
import { createProductMirror } from "../catalog";
import { startSync, createSyncRuns, parseProgress, type SyncProgress } from "../sync";
import { progressCounters, progressLine } from "./progress-bar";
import { parseSettings } from "../settings";

const shopOption = { shop: { type: "string", description: "shop domain, e.g. my-store.myshopify.com" } } as const;

export const syncErrorsCommand = defineCommand({
  name: "sync errors",
  summary: "List the products the service refused, with its reason.",
  usage: "--shop <domain> [--limit <n>] [--json]",
  options: {
    ...shopOption,
    limit: { type: "string", description: "rows to show (default 50)" },
    json: { type: "boolean", description: "print JSON" },
  },
  required: ["shop"],
  async run(v, io) {
    return withContext(io, async (ctx) => {
      const shop = await ctx.shops.get(String(v.shop)).catch(usageFrom);
      const limit = Number(v.limit ?? 50);
      const { rows, total } = await createProductMirror(ctx.db).errors(
        shop.id,
        Number.isFinite(limit) && limit > 0 ? limit : 50,
      );
      if (v.json) {
        io.out(JSON.stringify({ total, rows }, null, 2));
        return 0;
      }
      if (!total) {
        io.out(`No refused products for ${shop.domain}.`);
        return 0;
      }
      // Refused by the service (its reason), or by the mapper before sending ("not mapped: ...").
      io.out(`${total} product(s) refused${total > rows.length ? ` (showing ${rows.length})` : ""}:`);
      for (const r of rows)
        io.out(`  product ${r.productId}  sku ${r.sku}  ${r.errorAt?.toISOString() ?? ""}  ${r.error}`);
      return 0;
    });
  },
});

/**
 * Shows a run's progress line until it ends (exit 0 when completed, 1 when it failed or was
 * cancelled, or when watching timed out; the run goes on in the worker either way).
 */
async function watchRun(
  ctx: CliContext,
  runId: string,
  io: CliIo,
  options: { label: string; timeoutSeconds: number; summary?: (p: SyncProgress) => string },
): Promise<number> {
  const runs = createSyncRuns(ctx.db);
  const deadline = Date.now() + options.timeoutSeconds * 1000;
  let last = "";
  let path: string | null = null;
  for (;;) {
    const current = await runs.get(runId);
    if (!current) return 1;
    const progress = parseProgress(current.progress);
    const line = progressLine(progress, current.status);
    if (line !== last) (io.progress ?? io.out)(line);
    last = line;
    if (current.readPath !== path) {
      path = current.readPath;
      if (path === "paged")
        io.out(
          `\nShopify refused bulk operations (${current.readPathReason ?? "no reason recorded"}): reading page by page. Enable bulk queries in the Partner Dashboard (API access requests) to use them again.`,
        );
    }
    if (current.status === "completed") {
      if (current.readPath === "paged")
        io.out(
          `\nRead page by page (paged GraphQL queries): Shopify refused bulk operations (${current.readPathReason ?? "no reason recorded"}).`,
        );
      if (current.readPath === "bulk") io.out("\nRead with a bulk operation.");
      io.out(`\n${options.label} completed: ${(options.summary ?? progressCounters)(progress)}`);
      return 0;
    }
    if (current.status === "failed" || current.status === "cancelled") {
      io.err(`\n${options.label} ${current.status}: ${current.error ?? "no reason recorded"}`);
      return 1;
    }
    if (Date.now() > deadline) {
      io.err("\nStopped watching; the sync goes on in the worker.");
      return 1;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

export const syncCatalogCommand = defineCommand({
  name: "sync catalog",
  summary:
    "Run a full catalog sync (bulk operation; paged reads when Shopify refuses bulk operations) and show its progress and which way it read; a worker must be running.",
  usage: "--shop <domain> [--no-wait] [--timeout <seconds>]",
  options: {
    ...shopOption,
    "no-wait": { type: "boolean", description: "start it and return" },
    timeout: { type: "string", description: "stop watching after this many seconds (default 3600)" },
  },
  required: ["shop"],
  async run(v, io) {
    return withContext(io, async (ctx) => {
      const shop = await ctx.shops.get(String(v.shop)).catch(usageFrom);
      const { run, joined } = await startSync({ db: ctx.db, queues: ctx.queues() }, shop.id, "catalog");
      io.out(
        `${joined ? "Joined the catalog sync under way" : "Started a catalog sync"} for ${shop.domain} (run ${run.id}).`,
      );
      if (v["no-wait"]) return 0;
      return watchRun(ctx, run.id, io, { label: "Catalog sync", timeoutSeconds: Number(v.timeout ?? 3600) });
    });
  },
});

// ---------------------------------------------------------------------------------------------
// Orders

const DAY_MS = 86_400_000;

/** `--since YYYY-MM-DD`: that day from 00:00 UTC. A usage error names what is wrong with it. */
export function parseSinceDay(text: string, now = new Date()): Date {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  if (!m) throw new UsageError(`--since: expected a date as YYYY-MM-DD, got ${JSON.stringify(text)}`);
  const day = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  if (
    day.getUTCFullYear() !== Number(m[1]) ||
    day.getUTCMonth() !== Number(m[2]) - 1 ||
    day.getUTCDate() !== Number(m[3])
  ) {
    throw new UsageError(`--since: ${text} is not a calendar date`);
  }
  if (day.getTime() > now.getTime()) throw new UsageError(`--since: ${text} is in the future`);
  return day;
}

export const syncOrdersCommand = defineCommand({
  name: "sync orders",
  summary:
    "Reconcile the orders created since a date with the service (sends only what differs); a worker must be running.",
  usage: "--shop <domain> [--since YYYY-MM-DD] [--no-wait] [--timeout <seconds>]",
  options: {
    ...shopOption,
    since: { type: "string", description: "orders created on or after this day, UTC (default: the backfill window)" },
    "no-wait": { type: "boolean", description: "start it and return" },
    timeout: { type: "string", description: "stop watching after this many seconds (default 3600)" },
  },
  required: ["shop"],
  async run(v, io) {
    const given = v.since === undefined ? undefined : parseSinceDay(String(v.since));
    return withContext(io, async (ctx) => {
      const shop = await ctx.shops.get(String(v.shop)).catch(usageFrom);
      const since = given ?? new Date(Date.now() - parseSettings(shop.settings).orders.backfillDays * DAY_MS);
      if (Date.now() - since.getTime() > 60 * DAY_MS) {
        io.out("Note: Shopify gives the last 60 days of orders only, unless the app has the read_all_orders scope.");
      }
      const { run, joined } = await startSync({ db: ctx.db, queues: ctx.queues() }, shop.id, "orders", since);
      const window = (run.since ?? since).toISOString().slice(0, 10);
      io.out(
        joined
          ? `Joined the orders sync under way for ${shop.domain} (run ${run.id}, orders since ${window}); start another when it is done.`
          : `Started an orders reconciliation for ${shop.domain}: orders created since ${window} (run ${run.id}).`,
      );
      if (v["no-wait"]) return 0;
      return watchRun(ctx, run.id, io, {
        label: "Orders sync",
        timeoutSeconds: Number(v.timeout ?? 3600),
        summary: (p) => {
          const excluded = p.read - p.sent - p.unchanged - p.failed;
          return `read ${p.read}, sent ${p.sent} (created ${p.created}, updated ${p.updated}), unchanged ${p.unchanged}, excluded by settings ${excluded}, failed ${p.failed}`;
        },
      });
    });
  },
});
