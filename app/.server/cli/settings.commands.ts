import { defineCommand, UsageError, type CliIo } from "./command";
import type { CliContext } from "./cli-context";
import { usageFrom, withContext } from "./shop.commands";
import {
  defaultSettings,
  parseSettings,
  SettingsInputError,
  applyAssignments,
  describeSetting,
  flatten,
  getPath,
  parseAssignments,
  same,
  settingSpecs,
  show,
} from "../settings";
import { canSyncShop, countReviews } from "../shops";
import { startSync } from "../sync";
import { settingValueKey } from "../../shared/setting-words";
import { en } from "../../shared/i18n/en";

// `settings show` and `settings set`: a shop's merchant settings by dotted path (the paths, values
// and validation live in settings/settings-paths.ts; a bad one is a usage error here). Changing
// `catalog.variantKey` asks the service how many reviews the account holds first: they were
// collected under the old variant keys, which the app stops sending.

// ---------------------------------------------------------------------------------------------
// The variant key guard

const keyLabel: Record<string, string> = { id: "variant ids", sku: "variant SKUs" };

function orphanWarning(io: CliIo, from: string, to: string, total: number, customer: string) {
  const bar = "!".repeat(78);
  for (const line of [
    bar,
    `!! WARNING: changing catalog.variantKey from "${from}" to "${to}" ORPHANS EXISTING REVIEWS`,
    "!!",
    `!! The reviews service holds ${total} review(s) for account ${customer}.`,
    `!! After the change, the catalog variants and order items this app sends`,
    `!! carry ${keyLabel[to] ?? to} instead of ${keyLabel[from] ?? from}, so the reviews collected`,
    "!! under the old variant keys no longer match the variants and order items",
    "!! the app sends. Changing it back later orphans the reviews collected in between.",
    bar,
  ]) {
    io.err(line);
  }
}

/** Whether the variant key change may go ahead: asks the service, warns, and honours --force. */
async function variantKeyGuard(
  ctx: CliContext,
  io: CliIo,
  domain: string,
  from: string,
  to: string,
  force: boolean,
): Promise<boolean> {
  const count = await countReviews(ctx, domain);
  if (!count.ok) {
    if (!force) {
      io.err(`Cannot tell whether changing catalog.variantKey orphans reviews: ${count.reason}.`);
      io.err("Not saved. Run again when the service answers, or with --force to change it without checking.");
      return false;
    }
    io.err(`Warning: reviews not counted (${count.reason}); changing catalog.variantKey anyway (--force).`);
    return true;
  }
  if (count.total === 0) {
    io.out(
      `The reviews service holds no reviews for account ${count.customer}: changing the variant key orphans nothing.`,
    );
    return true;
  }
  orphanWarning(io, from, to, count.total, count.customer);
  if (!force) {
    io.err("Not saved. To change it anyway, run the same command with --force.");
    return false;
  }
  io.err("--force given: saving anyway.");
  return true;
}

// ---------------------------------------------------------------------------------------------
// Commands

/** A path or value that cannot be set is the caller's mistake: exit 2 with what is allowed. */
function asUsage<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof SettingsInputError) throw new UsageError(error.message);
    throw error;
  }
}

const shopOption = { shop: { type: "string", description: "shop domain, e.g. my-store.myshopify.com" } } as const;

export const settingsShowCommand = defineCommand({
  name: "settings show",
  summary: "Show a shop's settings by dotted path (no secrets).",
  usage: "--shop <domain> [--json]",
  options: { ...shopOption, json: { type: "boolean", description: "print JSON" } },
  required: ["shop"],
  async run(v, io) {
    return withContext(io, async (ctx) => {
      const shop = await ctx.shops.get(String(v.shop)).catch(usageFrom);
      const settings = parseSettings(shop.settings);
      if (v.json) {
        io.out(JSON.stringify(settings, null, 2));
        return 0;
      }
      const rows: [string, unknown][] = [];
      flatten(settings, "", rows);
      const width = Math.max(...rows.map(([p]) => p.length)) + 2;
      io.out(`Settings of ${shop.domain}:`);
      for (const [path, value] of rows) {
        const fallback = getPath(defaultSettings, path);
        // An enum value with the words the admin shows for it (the CLI speaks English).
        const key = typeof value === "string" ? settingValueKey(path, value) : null;
        const words = key ? ` "${en[key]}"` : "";
        io.out(
          `  ${path.padEnd(width)}${show(value)}${words}${same(value, fallback) ? "" : `   (default: ${show(fallback)})`}`,
        );
      }
      io.out(`Change one with: npm run cli -- settings set --shop ${shop.domain} <path>=<value>`);
      return 0;
    });
  },
});

const settableList = settingSpecs.map((s) => `  ${s.path.padEnd(36)}${describeSetting(s)}`).join("\n");

export const settingsSetCommand = defineCommand({
  name: "settings set",
  summary: "Change a shop's settings by dotted path (all or nothing; warns before orphaning reviews).",
  usage: `--shop <domain> <path>=<value> [<path>=<value> ...] [--force]\n\nSettings:\n${settableList}`,
  options: {
    ...shopOption,
    force: { type: "boolean", description: "change catalog.variantKey even when reviews exist (or cannot be counted)" },
  },
  required: ["shop"],
  positionals: true,
  async run(v, io, positionals) {
    const assignments = asUsage(() => parseAssignments(positionals));
    return withContext(io, async (ctx) => {
      const shop = await ctx.shops.get(String(v.shop)).catch(usageFrom);
      const current = parseSettings(shop.settings);
      const next = asUsage(() => applyAssignments(current, assignments));
      const changed = assignments.filter((a) => !same(getPath(current, a.spec.path), getPath(next, a.spec.path)));
      if (!changed.length) {
        io.out(
          `Nothing to change: ${shop.domain} already has ${assignments.map((a) => `${a.spec.path}=${show(getPath(current, a.spec.path))}`).join(", ")}.`,
        );
        return 0;
      }

      const keyChange = current.catalog.variantKey !== next.catalog.variantKey;
      // A sync of a shop that is not connected or installed would be cancelled at once.
      const syncable = canSyncShop(shop);
      if (keyChange) {
        if (
          !(await variantKeyGuard(
            ctx,
            io,
            shop.domain,
            current.catalog.variantKey,
            next.catalog.variantKey,
            Boolean(v.force),
          ))
        )
          return 1;
      }
      if (keyChange && syncable) {
        // The full sync that sends the new keys must be queueable before anything is saved.
        const redis = await ctx
          .queues()
          .ready(5000)
          .then(() => null)
          .catch((e: Error) => e);
        if (redis) {
          io.err(`Not saved: the catalog sync the new variant keys need cannot be queued (Redis: ${redis.message}).`);
          return 1;
        }
      }

      await ctx.shops.updateSettings(shop.domain, next);
      io.out(`Saved settings of ${shop.domain}:`);
      for (const a of assignments) {
        const before = getPath(current, a.spec.path);
        const after = getPath(next, a.spec.path);
        io.out(
          `  ${a.spec.path}: ${same(before, after) ? `${show(after)} (unchanged)` : `${show(before)} -> ${show(after)}`}`,
        );
      }
      if (ctx.config.SHOP_CACHE_MS > 0) io.out(`Workers pick them up within ${ctx.config.SHOP_CACHE_MS / 1000} s.`);

      if (keyChange) {
        if (!syncable) {
          io.out(
            "The shop is not connected (or not installed): the new variant keys go out with its next full catalog sync.",
          );
          return 0;
        }
        // Workers cache the shop row this long: the sync must map with the new key.
        await new Promise((r) => setTimeout(r, ctx.config.SHOP_CACHE_MS));
        const { run, joined } = await startSync({ db: ctx.db, queues: ctx.queues() }, shop.id, "catalog");
        if (joined) {
          io.out(
            `A catalog sync was already under way (run ${run.id}); what it read before the change went out with the old keys.`,
          );
          io.out(`Run \`npm run cli -- sync catalog --shop ${shop.domain}\` again once it ends.`);
        } else {
          io.out(
            `Started a full catalog sync (run ${run.id}) so the service gets the new variant keys; watch it with: npm run cli -- sync catalog --shop ${shop.domain}`,
          );
        }
      } else if (changed.some((a) => a.spec.path.startsWith("catalog."))) {
        io.out(
          `Products are sent with the new catalog settings as they change; to resend them all now: npm run cli -- sync catalog --shop ${shop.domain}`,
        );
      }
      return 0;
    });
  },
});
