import { z } from "zod";
import { shopSettingsSchema, type ShopSettings } from "./settings";

// A shop's settings by dotted path (`catalog.variantKey`), read from the schema so that a new
// setting can be set without touching this: which paths there are, what each takes, text turned
// into values of the right type, and assignments applied all or nothing. Used by the CLI; an
// admin page would use the same.

/** A path or value that cannot be set: the message says what is allowed. */
export class SettingsInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SettingsInputError";
  }
}

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
    if (inner instanceof z.ZodDefault || inner instanceof z.ZodPrefault || inner instanceof z.ZodOptional)
      inner = inner.unwrap() as z.ZodType;
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
    const regex = (schema.def.checks ?? [])
      .map((c) => c._zod.def as { format?: string; pattern?: RegExp })
      .find((d) => d.format === "regex");
    return { kind: "text", minLength: schema.minLength ?? 0, pattern: regex?.pattern };
  }
  if (schema instanceof z.ZodNumber)
    return { kind: "number", int: schema.isInt, min: finite(schema.minValue), max: finite(schema.maxValue) };
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
        out.push({
          path: [...path, key].join("."),
          leaf: { kind: "enum", values: schemas.flatMap((s) => [...(s as z.ZodLiteral).values].map(String)) },
          nullable: false,
          onlyWhen,
        });
        continue;
      }
      let when = onlyWhen;
      if (discriminator && having.length < members.length) {
        const values = having.flatMap((m) =>
          [...((m.shape[discriminator] as z.ZodLiteral | undefined)?.values ?? [])].map(String),
        );
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
  if (inside.length)
    throw new SettingsInputError(
      `${path} is a group of settings; set its fields: ${inside.map((s) => s.path).join(", ")}`,
    );
  throw new SettingsInputError(`unknown setting "${path}". Settings: ${settingSpecs.map((s) => s.path).join(", ")}`);
}

export function parseAssignments(args: string[]): Assignment[] {
  if (!args.length)
    throw new SettingsInputError("nothing to set: give one or more <path>=<value>, e.g. catalog.defaultCategory=Gifts");
  const seen = new Set<string>();
  return args.map((arg) => {
    const eq = arg.indexOf("=");
    if (eq <= 0) throw new SettingsInputError(`expected <path>=<value>, got ${JSON.stringify(arg)}`);
    const path = arg.slice(0, eq).trim();
    const raw = arg.slice(eq + 1);
    const spec = specFor(path);
    if (seen.has(path)) throw new SettingsInputError(`${path} is given twice`);
    seen.add(path);
    return { spec, raw, value: convertValue(raw, spec) };
  });
}

export function getPath(obj: unknown, path: string): unknown {
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
      const spec = [...settingSpecs]
        .sort((a, b) => b.path.length - a.path.length)
        .find((s) => at === s.path || at.startsWith(`${s.path}.`));
      const given = assignments.find((a) => a.spec === spec);
      const what = given ? `${JSON.stringify(given.raw)} is not allowed (${issue.message})` : issue.message;
      return `${spec?.path ?? at}: ${what}; allowed: ${spec ? describeSetting(spec) : "see settings set --help"}`;
    });
    throw new SettingsInputError(lines.join("\n       "));
  }
  for (const a of assignments) {
    // A union member drops the fields it does not have (orders.seller.property with mode "none").
    if (getPath(parsed.data, a.spec.path) === undefined) {
      throw new SettingsInputError(
        `${a.spec.path} is not kept: it is used only when ${a.spec.onlyWhen ?? "other settings allow it"}`,
      );
    }
  }
  return parsed.data;
}

// ---------------------------------------------------------------------------------------------
// Showing values

export function show(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return value.length ? value.map(String).join(", ") : "(none)";
  if (value === undefined) return "not set";
  return String(value);
}

export function flatten(value: unknown, prefix: string, out: [string, unknown][]) {
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else out.push([prefix, value]);
}

export const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
