import { z } from "zod";
import { defineCommand, UsageError, type CliIo } from "./command";
import type { CliContext } from "./cli-context";
import { usageFrom, withContext } from "./shop.commands";
import { defaultSettings, parseSettings, shopSettingsSchema, type ShopSettings } from "../shops/settings";
import { ShopNotConnectedError } from "../shops/shop.repository";
import { createReviewsClient, DEFAULT_TOKEN_TIMEOUT_MS, ReviewsError } from "../reviews";
import { startSync } from "../sync/start-sync";

// `settings show` and `settings set`: a shop's merchant settings (shops/settings.ts) by dotted path.
// Values are read by the schema's type at that path and the whole result is validated before
// anything is saved. Changing `catalog.variantKey` asks the service how many reviews the account
// holds first: they were collected under the old variant keys, which the app stops sending.

// ---------------------------------------------------------------------------------------------
// The settable paths, read from the schema (so a new setting is settable without touching this).

type Leaf =
  | { kind: "enum"; values: string[] }
  | { kind: "text"; minLength: number; pattern?: RegExp }
  | { kind: "number"; int: boolean; min: number | null; max: number | null }
  | { kind: "boolean" }
  | { kind: "list"; of: Leaf };

export interface SettingSpec {
  path: string;
  leaf: Leaf;
  nullable: boolean;
  /** When the setting applies only beside another value (`orders.seller.property`). */
  onlyWhen?: string;
}

function unwrap(schema: z.ZodType): { inner: z.ZodType; nullable: boolean } {
  let inner = schema;
  let nullable = false;
  for (;;) {
    if (inner instanceof z.ZodDefault || inner instanceof z.ZodPrefault || inner instanceof z.ZodOptional) inner = inner.unwrap() as z.ZodType;
    else if (inner instanceof z.ZodNullable) {
      nullable = true;
      inner = inner.unwrap() as z.ZodType;
    } else return { inner, nullable };
  }
}

const finite = (n: number | null | undefined) => (typeof n === "number" && Number.isFinite(n) ? n : null);

function leafOf(schema: z.ZodType): Leaf | null {
  if (schema instanceof z.ZodEnum) return { kind: "enum", values: schema.options.map(String) };
  if (schema instanceof z.ZodLiteral) return { kind: "enum", values: [...schema.values].map(String) };
  if (schema instanceof z.ZodString) {
    const regex = (schema.def.checks ?? []).map((c) => c._zod.def as { format?: string; pattern?: RegExp }).find((d) => d.format === "regex");
    return { kind: "text", minLength: schema.minLength ?? 0, pattern: regex?.pattern };
  }
  if (schema instanceof z.ZodNumber) return { kind: "number", int: schema.isInt, min: finite(schema.minValue), max: finite(schema.maxValue) };
  if (schema instanceof z.ZodBoolean) return { kind: "boolean" };
  if (schema instanceof z.ZodArray) {
    const of = leafOf(unwrap(schema.element as z.ZodType).inner);
    return of ? { kind: "list", of } : null;
  }
  return null;
}

function collect(schema: z.ZodType, path: string[], out: SettingSpec[], onlyWhen?: string) {
  const { inner, nullable } = unwrap(schema);
  if (inner instanceof z.ZodObject) {
    for (const [key, child] of Object.entries(inner.shape)) collect(child as z.ZodType, [...path, key], out, onlyWhen);
    return;
  }
  if (inner instanceof z.ZodUnion && inner.options.every((o) => o instanceof z.ZodObject)) {
    // A union of objects (orders.seller): each field of any member, the discriminator as an enum.
    const members = inner.options as z.ZodObject[];
    const discriminator = (inner.def as { discriminator?: string }).discriminator;
    const keys = [...new Set(members.flatMap((m) => Object.keys(m.shape)))];
    for (const key of keys) {
      const having = members.filter((m) => key in m.shape);
      const schemas = having.map((m) => m.shape[key] as z.ZodType);
      if (schemas.every((s) => s instanceof z.ZodLiteral)) {
        out.push({ path: [...path, key].join("."), leaf: { kind: "enum", values: schemas.flatMap((s) => [...(s as z.ZodLiteral).values].map(String)) }, nullable: false, onlyWhen });
        continue;
      }
      let when = onlyWhen;
      if (discriminator && having.length < members.length) {
        const values = having.flatMap((m) => [...((m.shape[discriminator] as z.ZodLiteral | undefined)?.values ?? [])].map(String));
        when = `${[...path, discriminator].join(".")}=${values.join(" or ")}`;
      }
      collect(schemas[0], [...path, key], out, when);
    }
    return;
  }
  const leaf = leafOf(inner);
  if (leaf) out.push({ path: path.join("."), leaf, nullable, onlyWhen });
}

export const settingSpecs: SettingSpec[] = (() => {
  const out: SettingSpec[] = [];
  collect(shopSettingsSchema, [], out);
  return out;
})();

function describeLeaf(leaf: Leaf): string {
  switch (leaf.kind) {
    case "enum":
      return `one of ${leaf.values.join(", ")}`;
    case "text":
      if (leaf.pattern) return `text matching ${leaf.pattern}`;
      return leaf.minLength > 0 ? "text" : "text (may be empty)";
    case "number": {
      const what = leaf.int ? "a whole number" : "a number";
      if (leaf.min !== null && leaf.max !== null) return `${what} from ${leaf.min} to ${leaf.max}`;
      if (leaf.min !== null) return `${what} of at least ${leaf.min}`;
      if (leaf.max !== null) return `${what} of at most ${leaf.max}`;
      return what;
    }
    case "boolean":
      return "true or false";
    case "list":
      return `a comma-separated list, each ${describeLeaf(leaf.of)} (empty for none)`;
  }
}

export function describeSetting(spec: SettingSpec): string {
  return `${describeLeaf(spec.leaf)}${spec.nullable ? ", or null" : ""}${spec.onlyWhen ? ` (used when ${spec.onlyWhen})` : ""}`;
}

// ---------------------------------------------------------------------------------------------
// Reading `path=value` arguments

function convertLeaf(text: string, leaf: Leaf): unknown {
  switch (leaf.kind) {
    case "number":
      // Anything else stays text, and the schema says what it expected.
      return /^[-+]?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
    case "boolean": {
      const t = text.toLowerCase();
      if (["true", "yes", "on"].includes(t)) return true;
      if (["false", "no", "off"].includes(t)) return false;
      return text;
    }
    case "list":
      return text === ""
        ? []
        : text
            .split(",")
            .map((x) => x.trim())
            .filter((x) => x !== "")
            .map((x) => convertLeaf(x, leaf.of));
    default:
      return text;
  }
}

export function convertValue(raw: string, spec: SettingSpec): unknown {
  const text = raw.trim();
  if (spec.nullable && text === "null") return null;
  return convertLeaf(text, spec.leaf);
}

export interface Assignment {
  spec: SettingSpec;
  raw: string;
  value: unknown;
}

function specFor(path: string): SettingSpec {
  const spec = settingSpecs.find((s) => s.path === path);
  if (spec) return spec;
  const inside = settingSpecs.filter((s) => s.path.startsWith(`${path}.`));
  if (inside.length) throw new UsageError(`${path} is a group of settings; set its fields: ${inside.map((s) => s.path).join(", ")}`);
  throw new UsageError(`unknown setting "${path}". Settings: ${settingSpecs.map((s) => s.path).join(", ")}`);
}

export function parseAssignments(args: string[]): Assignment[] {
  if (!args.length) throw new UsageError("nothing to set: give one or more <path>=<value>, e.g. catalog.defaultCategory=Gifts");
  const seen = new Set<string>();
  return args.map((arg) => {
    const eq = arg.indexOf("=");
    if (eq <= 0) throw new UsageError(`expected <path>=<value>, got ${JSON.stringify(arg)}`);
    const path = arg.slice(0, eq).trim();
    const raw = arg.slice(eq + 1);
    const spec = specFor(path);
    if (seen.has(path)) throw new UsageError(`${path} is given twice`);
    seen.add(path);
    return { spec, raw, value: convertValue(raw, spec) };
  });
}

function getPath(obj: unknown, path: string): unknown {
  let at: unknown = obj;
  for (const key of path.split(".")) {
    if (at === null || typeof at !== "object") return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

function setPath(obj: Record<string, unknown>, path: string, value: unknown) {
  const keys = path.split(".");
  let at = obj;
  for (const key of keys.slice(0, -1)) {
    const next = at[key];
    at = next !== null && typeof next === "object" ? (next as Record<string, unknown>) : (at[key] = {});
  }
  at[keys[keys.length - 1]] = value;
}

/** The settings with the assignments applied, validated; every problem named by its path. */
export function applyAssignments(current: ShopSettings, assignments: Assignment[]): ShopSettings {
  const draft = structuredClone(current) as unknown as Record<string, unknown>;
  for (const a of assignments) setPath(draft, a.spec.path, a.value);
  const parsed = shopSettingsSchema.safeParse(draft);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const at = issue.path.map(String).join(".");
      const spec = [...settingSpecs].sort((a, b) => b.path.length - a.path.length).find((s) => at === s.path || at.startsWith(`${s.path}.`));
      const given = assignments.find((a) => a.spec === spec);
      const what = given ? `${JSON.stringify(given.raw)} is not allowed (${issue.message})` : issue.message;
      return `${spec?.path ?? at}: ${what}; allowed: ${spec ? describeSetting(spec) : "see settings set --help"}`;
    });
    throw new UsageError(lines.join("\n       "));
  }
  for (const a of assignments) {
    // A union member drops the fields it does not have (orders.seller.property with mode "none").
    if (getPath(parsed.data, a.spec.path) === undefined) {
      throw new UsageError(`${a.spec.path} is not kept: it is used only when ${a.spec.onlyWhen ?? "other settings allow it"}`);
    }
  }
  return parsed.data;
}

// ---------------------------------------------------------------------------------------------
// Showing values

function show(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return value.length ? value.map(String).join(", ") : "(none)";
  if (value === undefined) return "not set";
  return String(value);
}

function flatten(value: unknown, prefix: string, out: [string, unknown][]) {
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else out.push([prefix, value]);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

// ---------------------------------------------------------------------------------------------
// The variant key guard

const keyLabel: Record<string, string> = { id: "variant ids", sku: "variant SKUs" };

type ReviewCount = { ok: true; total: number; customer: string } | { ok: false; reason: string };

/** How many reviews (any status) the service holds for the shop's account, or why it cannot say. */
async function countReviews(ctx: CliContext, domain: string): Promise<ReviewCount> {
  const { REVIEWS_API_URL, REVIEWS_AUTH_URL, REVIEWS_RATE_URL, REVIEWS_TIMEOUT_MS } = ctx.config;
  let account;
  try {
    account = await ctx.shops.account(domain, { apiUrl: REVIEWS_API_URL, authUrl: REVIEWS_AUTH_URL, rateUrl: REVIEWS_RATE_URL });
  } catch (error) {
    if (error instanceof ShopNotConnectedError) return { ok: false, reason: "the shop is not connected to the reviews service" };
    throw error;
  }
  const client = createReviewsClient({ account, timeoutMs: REVIEWS_TIMEOUT_MS, tokenTimeoutMs: Math.min(REVIEWS_TIMEOUT_MS, DEFAULT_TOKEN_TIMEOUT_MS) });
  try {
    const { total } = await client.admin.listReviews({});
    return { ok: true, total, customer: account.customer };
  } catch (error) {
    if (error instanceof ReviewsError) return { ok: false, reason: error.message };
    throw error;
  }
}

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
async function variantKeyGuard(ctx: CliContext, io: CliIo, domain: string, from: string, to: string, force: boolean): Promise<boolean> {
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
    io.out(`The reviews service holds no reviews for account ${count.customer}: changing the variant key orphans nothing.`);
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
        io.out(`  ${path.padEnd(width)}${show(value)}${same(value, fallback) ? "" : `   (default: ${show(fallback)})`}`);
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
    const assignments = parseAssignments(positionals);
    return withContext(io, async (ctx) => {
      const shop = await ctx.shops.get(String(v.shop)).catch(usageFrom);
      const current = parseSettings(shop.settings);
      const next = applyAssignments(current, assignments);
      const changed = assignments.filter((a) => !same(getPath(current, a.spec.path), getPath(next, a.spec.path)));
      if (!changed.length) {
        io.out(`Nothing to change: ${shop.domain} already has ${assignments.map((a) => `${a.spec.path}=${show(getPath(current, a.spec.path))}`).join(", ")}.`);
        return 0;
      }

      const keyChange = current.catalog.variantKey !== next.catalog.variantKey;
      // A sync of a shop that is not connected or installed would be cancelled at once.
      const syncable = Boolean(shop.customerKey && shop.clientSecretEncrypted) && shop.installState === "installed";
      if (keyChange) {
        if (!(await variantKeyGuard(ctx, io, shop.domain, current.catalog.variantKey, next.catalog.variantKey, Boolean(v.force)))) return 1;
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
        io.out(`  ${a.spec.path}: ${same(before, after) ? `${show(after)} (unchanged)` : `${show(before)} -> ${show(after)}`}`);
      }
      if (ctx.config.SHOP_CACHE_MS > 0) io.out(`Workers pick them up within ${ctx.config.SHOP_CACHE_MS / 1000} s.`);

      if (keyChange) {
        if (!syncable) {
          io.out("The shop is not connected (or not installed): the new variant keys go out with its next full catalog sync.");
          return 0;
        }
        // Workers cache the shop row this long: the sync must map with the new key.
        await new Promise((r) => setTimeout(r, ctx.config.SHOP_CACHE_MS));
        const { run, joined } = await startSync({ db: ctx.db, queues: ctx.queues() }, shop.id, "catalog");
        if (joined) {
          io.out(`A catalog sync was already under way (run ${run.id}); what it read before the change went out with the old keys.`);
          io.out(`Run \`npm run cli -- sync catalog --shop ${shop.domain}\` again once it ends.`);
        } else {
          io.out(`Started a full catalog sync (run ${run.id}) so the service gets the new variant keys; watch it with: npm run cli -- sync catalog --shop ${shop.domain}`);
        }
      } else if (changed.some((a) => a.spec.path.startsWith("catalog."))) {
        io.out(`Products are sent with the new catalog settings as they change; to resend them all now: npm run cli -- sync catalog --shop ${shop.domain}`);
      }
      return 0;
    });
  },
});
