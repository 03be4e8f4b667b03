import { createHash } from "node:crypto";
import type { ProductCatalog } from "./products";
import type { OperationHandler, OperationResult, StoreModule } from "./router";

// Metafields as Shopify keeps them: per owner (a product or the app installation), keyed by
// namespace and key, with a type checked on every write. `metafieldsSet` takes at most 25 a call,
// is atomic (one userError and nothing is written) and answers validation failures as userErrors
// with `field`, `code` and `elementIndex`, the way the Admin API does. The app's own namespace
// `$app:reviews` is stored as `app--<app id>--reviews`, as Shopify stores it. Standard definitions
// (`reviews.rating`, `reviews.rating_count`) are switched on with
// `standardMetafieldDefinitionEnable`, the app's own with `metafieldDefinitionCreate`, and then
// constrain the type and values of their metafields.
// `flowTriggerReceive` is answered and recorded here too: it is the other write the review feed makes.

export const SIM_APP_ID = 7_461_923;
export const APP_INSTALLATION_GID = `gid://shopify/AppInstallation/${SIM_APP_ID}01`;
const METAFIELD_ID_BASE = 39_000_000_000_000;
/** JSON values written with API 2026-04 or later. */
export const JSON_VALUE_MAX_BYTES = 128 * 1024;
const OTHER_VALUE_MAX_BYTES = 64 * 1024;
export const METAFIELDS_SET_MAX = 25;
const METAFIELDS_DELETE_MAX = 250;
/** Flow refuses trigger payloads over 50 KB. */
const FLOW_PAYLOAD_MAX_BYTES = 50_000;

export interface StoredMetafield {
  id: string;
  ownerId: string;
  namespace: string;
  key: string;
  type: string;
  value: string;
  createdAt: string;
  updatedAt: string;
}

export interface MetafieldDefinition {
  id: string;
  name: string;
  ownerType: "PRODUCT";
  namespace: string;
  key: string;
  type: string;
  validations: { name: string; value: string }[];
  /** App definitions only: what `access.storefront` and `capabilities` asked for. */
  storefrontAccess?: "PUBLIC_READ" | "NONE";
  capabilities?: string[];
}

export interface FlowTriggerCall {
  handle: string;
  payload: unknown;
  at: string;
}

interface SetInput {
  ownerId?: unknown;
  namespace?: unknown;
  key?: unknown;
  type?: unknown;
  value?: unknown;
  compareDigest?: unknown;
}

interface UserError {
  field: string[];
  message: string;
  code: string;
  elementIndex?: number;
}

// The standard templates the app uses (Shopify's list has many more; others answer TEMPLATE_NOT_FOUND).
const STANDARD_TEMPLATES: Record<string, Omit<MetafieldDefinition, "id" | "ownerType">> = {
  "reviews.rating": {
    name: "Product rating",
    namespace: "reviews",
    key: "rating",
    type: "rating",
    validations: [
      { name: "scale_min", value: "1.0" },
      { name: "scale_max", value: "5.0" },
    ],
  },
  "reviews.rating_count": {
    name: "Product rating count",
    namespace: "reviews",
    key: "rating_count",
    type: "number_integer",
    validations: [{ name: "min", value: "0" }],
  },
};

const KNOWN_TYPES = new Set([
  "boolean",
  "color",
  "date",
  "date_time",
  "json",
  "money",
  "multi_line_text_field",
  "number_decimal",
  "number_integer",
  "rating",
  "single_line_text_field",
  "url",
  "product_reference",
]);

/** `$app:reviews` → `app--<id>--reviews`; `$app` → `app--<id>`; other namespaces as given. */
export function resolveNamespace(namespace: string, appId = SIM_APP_ID): string {
  if (namespace === "$app") return `app--${appId}`;
  if (namespace.startsWith("$app:")) return `app--${appId}--${namespace.slice(5)}`;
  return namespace;
}

export const digestOf = (value: string) => createHash("sha256").update(value).digest("hex");

export class MetafieldStore {
  private readonly byOwner = new Map<string, Map<string, StoredMetafield>>();
  private readonly definitions = new Map<string, MetafieldDefinition>();
  private nextId = 1;
  readonly flowTriggers: FlowTriggerCall[] = [];

  constructor(
    private readonly ownerExists: (gid: string) => boolean,
    private readonly now: () => Date = () => new Date(),
  ) {}

  // ---- reads ----

  get(ownerId: string, namespace: string, key: string): StoredMetafield | null {
    return this.byOwner.get(ownerId)?.get(`${resolveNamespace(namespace)}.${key}`) ?? null;
  }

  list(ownerId: string, namespace?: string | null): StoredMetafield[] {
    const all = [...(this.byOwner.get(ownerId)?.values() ?? [])];
    return namespace ? all.filter((m) => m.namespace === resolveNamespace(namespace)) : all;
  }

  owners(): string[] {
    return [...this.byOwner.keys()].filter((o) => (this.byOwner.get(o)?.size ?? 0) > 0);
  }

  definition(namespace: string, key: string): MetafieldDefinition | null {
    return this.definitions.get(`${namespace}.${key}`) ?? null;
  }

  allDefinitions(): MetafieldDefinition[] {
    return [...this.definitions.values()];
  }

  // ---- writes ----

  enableStandard(
    ownerType: unknown,
    namespace: unknown,
    key: unknown,
  ): { definition: MetafieldDefinition | null; userErrors: UserError[] } {
    if (ownerType !== "PRODUCT") {
      return {
        definition: null,
        userErrors: [
          { field: ["ownerType"], message: "Owner type is not supported by this template.", code: "INVALID" },
        ],
      };
    }
    const name = `${String(namespace)}.${String(key)}`;
    const template = STANDARD_TEMPLATES[name];
    if (!template) {
      return {
        definition: null,
        userErrors: [
          {
            field: ["namespace"],
            message: "A standard definition wasn't found for the specified namespace and key.",
            code: "TEMPLATE_NOT_FOUND",
          },
        ],
      };
    }
    if (this.definitions.has(name)) {
      return {
        definition: null,
        userErrors: [
          { field: ["namespace"], message: "Namespace and key are already in use by a definition.", code: "TAKEN" },
        ],
      };
    }
    const definition: MetafieldDefinition = {
      ...template,
      ownerType: "PRODUCT",
      id: `gid://shopify/MetafieldDefinition/${1_100_000 + this.definitions.size}`,
    };
    this.definitions.set(name, definition);
    return { definition, userErrors: [] };
  }

  /**
   * `metafieldDefinitionCreate` for products: the app's own definitions (`$app:…`, stored under the
   * resolved namespace as metafields are). What the app sends is checked as Shopify checks it: a known
   * type, storefront access from its enum, known capabilities; TAKEN when the namespace and key exist.
   */
  createDefinition(input: unknown): { definition: MetafieldDefinition | null; userErrors: UserError[] } {
    const d = (input ?? {}) as Record<string, unknown>;
    const fail = (field: string, message: string, code: string) => ({
      definition: null,
      userErrors: [{ field: ["definition", field], message, code }],
    });
    if (d.ownerType !== "PRODUCT") return fail("ownerType", "Owner type is not supported here.", "INCLUSION");
    if (typeof d.name !== "string" || !d.name) return fail("name", "Name can't be blank.", "BLANK");
    if (typeof d.key !== "string" || !/^[A-Za-z0-9_-]{2,64}$/.test(d.key))
      return fail("key", "Key is invalid.", "INVALID");
    if (typeof d.type !== "string" || !KNOWN_TYPES.has(d.type))
      return fail("type", `Type ${String(d.type)} is not a valid metafield type.`, "INCLUSION");
    const storefront = (d.access as { storefront?: unknown } | undefined)?.storefront;
    if (storefront !== undefined && storefront !== "PUBLIC_READ" && storefront !== "NONE")
      return fail("access", "Storefront access is invalid.", "INVALID");
    const capabilities = Object.keys((d.capabilities as object | undefined) ?? {});
    if (capabilities.some((c) => !["adminFilterable", "smartCollectionCondition", "uniqueValues"].includes(c)))
      return fail("capabilities", "Capability is invalid.", "INVALID_CAPABILITY");
    const namespace = resolveNamespace(typeof d.namespace === "string" && d.namespace ? d.namespace : "$app");
    const name = `${namespace}.${d.key}`;
    if (this.definitions.has(name))
      return fail("key", "Key is in use for Product metafields on the 'namespace' namespace.", "TAKEN");
    const validations = Array.isArray(d.validations)
      ? (d.validations as { name?: unknown; value?: unknown }[]).map((v) => ({
          name: String(v.name),
          value: String(v.value),
        }))
      : [];
    const definition: MetafieldDefinition = {
      id: `gid://shopify/MetafieldDefinition/${1_100_000 + this.definitions.size}`,
      name: d.name,
      ownerType: "PRODUCT",
      namespace,
      key: d.key,
      type: d.type,
      validations,
      storefrontAccess: storefront === "PUBLIC_READ" ? "PUBLIC_READ" : "NONE",
      capabilities,
    };
    this.definitions.set(name, definition);
    return { definition, userErrors: [] };
  }

  /** All or nothing: validates every input first, writes only when none fails. */
  set(inputs: SetInput[]): { written: StoredMetafield[]; userErrors: UserError[] } {
    const userErrors: UserError[] = [];
    const valid: { ownerId: string; namespace: string; key: string; type: string; value: string }[] = [];
    inputs.forEach((input, i) => {
      const error = (field: string, message: string, code: string) =>
        userErrors.push({ field: ["metafields", String(i), field], message, code, elementIndex: i });
      const ownerId = typeof input.ownerId === "string" ? input.ownerId : "";
      const rawNamespace = typeof input.namespace === "string" && input.namespace ? input.namespace : "$app";
      const key = typeof input.key === "string" ? input.key : "";
      const type = typeof input.type === "string" ? input.type : "";
      const value = typeof input.value === "string" ? input.value : "";
      if (!ownerId || !this.ownerExists(ownerId)) return error("ownerId", "Owner does not exist.", "INVALID");
      if (!key) return error("key", "Key can't be blank.", "BLANK");
      if (key.length < 2) return error("key", "Key is too short (minimum is 2 characters).", "TOO_SHORT");
      if (key.length > 64) return error("key", "Key is too long (maximum is 64 characters).", "TOO_LONG");
      if (!/^[A-Za-z0-9_-]+$/.test(key)) return error("key", "Key contains one or more invalid characters.", "INVALID");
      const namespace = resolveNamespace(rawNamespace);
      if (namespace.length < 2 || namespace.length > 255) return error("namespace", "Namespace is invalid.", "INVALID");
      const definition = ownerId.startsWith("gid://shopify/Product/") ? this.definition(namespace, key) : null;
      const existing = this.byOwner.get(ownerId)?.get(`${namespace}.${key}`);
      const effectiveType = type || definition?.type || existing?.type || "";
      if (!effectiveType) return error("type", "Type can't be blank.", "BLANK");
      if (!KNOWN_TYPES.has(effectiveType))
        return error("type", `Type ${effectiveType} is not a valid metafield type.`, "INVALID_TYPE");
      if (definition && effectiveType !== definition.type) {
        return error(
          "type",
          `Type '${effectiveType}' must be consistent with the definition's type: '${definition.type}'.`,
          "INVALID_TYPE",
        );
      }
      if (!definition && existing && existing.type !== effectiveType) {
        return error(
          "type",
          `Type '${effectiveType}' must be consistent with the existing metafield's type: '${existing.type}'.`,
          "INVALID_TYPE",
        );
      }
      if (input.value === undefined || input.value === null || value === "")
        return error("value", "Value can't be blank.", "BLANK");
      const problem = valueProblem(effectiveType, value, definition);
      if (problem) return error("value", problem.message, problem.code);
      if (input.compareDigest !== undefined) {
        const current = existing ? digestOf(existing.value) : null;
        if (input.compareDigest !== current)
          return error(
            "compareDigest",
            "The resource has been updated since it was loaded. Try again with an updated `compareDigest` value.",
            "STALE_OBJECT",
          );
      }
      valid.push({ ownerId, namespace, key, type: effectiveType, value });
    });
    if (userErrors.length > 0) return { written: [], userErrors };
    const at = this.now().toISOString();
    const written = valid.map((v) => {
      let owned = this.byOwner.get(v.ownerId);
      if (!owned) this.byOwner.set(v.ownerId, (owned = new Map()));
      const before = owned.get(`${v.namespace}.${v.key}`);
      const stored: StoredMetafield = {
        id: before?.id ?? `gid://shopify/Metafield/${METAFIELD_ID_BASE + this.nextId++}`,
        ...v,
        createdAt: before?.createdAt ?? at,
        updatedAt: at,
      };
      owned.set(`${v.namespace}.${v.key}`, stored);
      return stored;
    });
    return { written, userErrors: [] };
  }

  /** Each identifier answers what it deleted, or null when there was nothing. */
  delete(
    ids: { ownerId?: unknown; namespace?: unknown; key?: unknown }[],
  ): ({ ownerId: string; namespace: string; key: string } | null)[] {
    return ids.map((m) => {
      if (typeof m.ownerId !== "string" || typeof m.namespace !== "string" || typeof m.key !== "string") return null;
      const owned = this.byOwner.get(m.ownerId);
      const name = `${resolveNamespace(m.namespace)}.${m.key}`;
      if (!owned?.delete(name)) return null;
      return { ownerId: m.ownerId, namespace: m.namespace, key: m.key };
    });
  }

  /** Every metafield of an owner goes with it (a deleted product). */
  dropOwner(ownerId: string): void {
    this.byOwner.delete(ownerId);
  }
}

function valueProblem(
  type: string,
  value: string,
  definition: MetafieldDefinition | null,
): { message: string; code: string } | null {
  const bytes = Buffer.byteLength(value, "utf8");
  const limit = type === "json" ? JSON_VALUE_MAX_BYTES : OTHER_VALUE_MAX_BYTES;
  if (bytes > limit)
    return {
      message: `Value is too big. The maximum size of a ${type} value is ${limit / 1024} KB.`,
      code: "TOO_LONG",
    };
  const validation = (name: string) => definition?.validations.find((v) => v.name === name)?.value;
  switch (type) {
    case "json":
      try {
        JSON.parse(value);
        return null;
      } catch {
        return { message: "Value is invalid JSON.", code: "INVALID_VALUE" };
      }
    case "number_integer": {
      if (!/^-?\d+$/.test(value)) return { message: "Value must be an integer.", code: "INVALID_VALUE" };
      const n = BigInt(value);
      if (n > 9_007_199_254_740_991n || n < -9_007_199_254_740_991n)
        return { message: "Value is out of range.", code: "INVALID_VALUE" };
      const min = validation("min");
      if (min !== undefined && n < BigInt(min))
        return { message: `Value must be greater than or equal to ${min}.`, code: "INVALID_VALUE" };
      return null;
    }
    case "rating": {
      let parsed: { value?: unknown; scale_min?: unknown; scale_max?: unknown };
      try {
        parsed = JSON.parse(value) as typeof parsed;
      } catch {
        return { message: "Value is invalid JSON.", code: "INVALID_VALUE" };
      }
      const num = (v: unknown) =>
        typeof v === "string" && v.trim() !== "" ? Number(v) : typeof v === "number" ? v : NaN;
      const rating = num(parsed?.value);
      const min = num(parsed?.scale_min);
      const max = num(parsed?.scale_max);
      if (![rating, min, max].every(Number.isFinite))
        return { message: "Value must include value, scale_min and scale_max as numbers.", code: "INVALID_VALUE" };
      if (min >= max) return { message: "Scale min must be less than scale max.", code: "INVALID_VALUE" };
      if (rating < min || rating > max)
        return { message: `Value must be between ${min} and ${max}.`, code: "INVALID_VALUE" };
      const dmin = validation("scale_min");
      const dmax = validation("scale_max");
      if ((dmin !== undefined && Number(dmin) !== min) || (dmax !== undefined && Number(dmax) !== max)) {
        return { message: `Scale must match the definition: ${dmin} to ${dmax}.`, code: "INVALID_VALUE" };
      }
      return null;
    }
    case "boolean":
      return value === "true" || value === "false"
        ? null
        : { message: "Value must be true or false.", code: "INVALID_VALUE" };
    case "number_decimal": {
      const n = Number(value);
      if (!/^-?\d+(\.\d+)?$/.test(value) || !Number.isFinite(n))
        return { message: "Value must be a decimal.", code: "INVALID_VALUE" };
      const [min, max] = [validation("min"), validation("max")];
      if (min !== undefined && n < Number(min))
        return { message: `Value must be greater than or equal to ${min}.`, code: "GREATER_THAN_OR_EQUAL_TO" };
      if (max !== undefined && n > Number(max))
        return { message: `Value must be less than or equal to ${max}.`, code: "LESS_THAN_OR_EQUAL_TO" };
      return null;
    }
    default:
      return null;
  }
}

// ---- GraphQL operations ----

interface MetafieldOut {
  id: string;
  namespace: string;
  key: string;
  type: string;
  value: string;
  jsonValue: unknown;
  compareDigest: string;
  createdAt: string | null;
  updatedAt: string | null;
  ownerType: string;
  definition: { name: string } | null;
}

function jsonValueOf(type: string, value: string): unknown {
  if (type === "json" || type === "rating") {
    try {
      return JSON.parse(value);
    } catch {
      return null;
    }
  }
  if (type === "number_integer" || type === "number_decimal") return Number(value);
  if (type === "boolean") return value === "true";
  return value;
}

const productGid = (id: unknown) =>
  typeof id === "string" ? id : typeof id === "number" ? `gid://shopify/Product/${id}` : "";
const firstOf = (v: unknown, fallback: number) =>
  typeof v === "number" && v > 0 ? Math.min(250, Math.floor(v)) : fallback;

function offsetCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ last: offset })).toString("base64");
}

function offsetOf(cursor: unknown): number {
  if (typeof cursor !== "string") return 0;
  try {
    const v = JSON.parse(Buffer.from(cursor, "base64").toString("utf8")) as { last?: unknown };
    return typeof v.last === "number" ? v.last : 0;
  } catch {
    return 0;
  }
}

/** The metafields module: definitions, metafieldsSet/Delete, app installation, product reads, Flow. */
export function metafieldsModule(catalog: ProductCatalog, store: MetafieldStore): StoreModule {
  const out = (
    m: {
      id: string;
      namespace: string;
      key: string;
      type: string;
      value: string;
      createdAt?: string;
      updatedAt?: string;
    },
    ownerType: string,
  ): MetafieldOut => ({
    id: m.id,
    namespace: m.namespace,
    key: m.key,
    type: m.type,
    value: m.value,
    jsonValue: jsonValueOf(m.type, m.value),
    compareDigest: digestOf(m.value),
    createdAt: m.createdAt ?? null,
    updatedAt: m.updatedAt ?? null,
    ownerType,
    definition:
      ownerType === "PRODUCT"
        ? store.definition(m.namespace, m.key)
          ? { name: store.definition(m.namespace, m.key)!.name }
          : null
        : null,
  });

  /** The product's own metafields (from the catalog) under what the app wrote. */
  const productMetafields = (gid: string, namespace?: unknown): MetafieldOut[] => {
    const p = catalog.get(gid);
    if (!p) return [];
    const byName = new Map<string, MetafieldOut>();
    for (const m of p.metafields) byName.set(`${m.namespace}.${m.key}`, out(m, "PRODUCT"));
    for (const m of store.list(gid)) byName.set(`${m.namespace}.${m.key}`, out(m, "PRODUCT"));
    const ns = typeof namespace === "string" && namespace ? resolveNamespace(namespace) : null;
    return [...byName.values()].filter((m) => !ns || m.namespace === ns);
  };

  const storefrontProduct = (gid: string, metafieldsFirst: number) => {
    const p = catalog.get(gid);
    if (!p) return null;
    const metafields = productMetafields(gid).slice(0, metafieldsFirst);
    return {
      node: {
        id: p.id,
        handle: p.handle,
        title: p.title,
        descriptionHtml: p.descriptionHtml,
        vendor: p.vendor,
        productType: p.productType,
        status: p.status,
        tags: p.tags,
        updatedAt: p.updatedAt,
        featuredMedia: p.featuredMedia,
        variants: {
          nodes: p.variants.slice(0, 10).map((v) => ({ id: v.id, title: v.title, sku: v.sku, price: v.price })),
        },
        metafields: { nodes: metafields },
      },
      cost: 1 + 2 + Math.min(10, p.variants.length) + 2 + metafields.length,
    };
  };

  const mutation = (handle: (v: Record<string, unknown>) => OperationResult): OperationHandler => ({
    handle,
  });

  const productQuery: OperationHandler = {
    handle: (v) => {
      const gid = productGid(v.id);
      const p = gid ? catalog.get(gid) : null;
      if (!p) return { data: { product: null }, actualCost: 1 };
      const metafields = productMetafields(gid, v.namespace).slice(0, 50);
      const one =
        typeof v.key === "string" && typeof v.namespace === "string"
          ? (productMetafields(gid, v.namespace).find((m) => m.key === v.key) ?? null)
          : null;
      return {
        data: {
          product: { id: p.id, handle: p.handle, title: p.title, metafields: { nodes: metafields }, metafield: one },
        },
        actualCost: 1 + 2 + metafields.length,
      };
    },
  };

  const productsQuery: OperationHandler = {
    handle: (v) => {
      const first = firstOf(v.first, 50);
      const from = offsetOf(v.after);
      const query = typeof v.query === "string" ? v.query : "";
      const handle = /(?:^|\s)handle:['"]?([^'"\s]+)/.exec(query)?.[1];
      const ids = /(?:^|\s)id:(\d+)/.exec(query)?.[1];
      const nodes: ReturnType<typeof storefrontProduct>[] = [];
      let index = 0;
      let hasNextPage = false;
      for (const p of catalog.iterate()) {
        if (handle && p.handle !== handle) continue;
        if (ids && !p.id.endsWith(`/${ids}`)) continue;
        index++;
        if (index <= from) continue;
        if (nodes.length === first) {
          hasNextPage = true;
          break;
        }
        nodes.push(storefrontProduct(p.id, 50));
      }
      const found = nodes.filter((n): n is NonNullable<typeof n> => n !== null);
      return {
        data: {
          products: {
            nodes: found.map((n) => n.node),
            pageInfo: { hasNextPage, endCursor: found.length ? offsetCursor(from + found.length) : null },
          },
        },
        actualCost: 2 + found.reduce((a, n) => a + n.cost, 0),
      };
    },
  };

  // Aliased single metafields (ProductRatings): one point per metafield object, as Shopify counts.
  const productRatings: OperationHandler = {
    handle: (v) => {
      const first = firstOf(v.first, 50);
      const from = offsetOf(v.after);
      const one = (gid: string, namespace: string, key: string) =>
        productMetafields(gid, namespace).find((m) => m.key === key) ?? null;
      const nodes: Record<string, unknown>[] = [];
      let index = 0;
      let hasNextPage = false;
      for (const p of catalog.iterate()) {
        index++;
        if (index <= from) continue;
        if (nodes.length === first) {
          hasNextPage = true;
          break;
        }
        const rating = one(p.id, "reviews", "rating");
        const ratingCount = one(p.id, "reviews", "rating_count");
        const ratingValue = one(p.id, "$app:reviews", "rating_value");
        const snapshot = one(p.id, "$app:reviews", "snapshot");
        nodes.push({
          id: p.id,
          rating: rating && { value: rating.value },
          ratingCount: ratingCount && { value: ratingCount.value },
          ratingValue: ratingValue && { value: ratingValue.value },
          snapshot: snapshot && { id: snapshot.id },
        });
      }
      return {
        data: {
          products: {
            nodes,
            pageInfo: { hasNextPage, endCursor: nodes.length ? offsetCursor(from + nodes.length) : null },
          },
        },
        actualCost: 2 + nodes.length * 4,
      };
    },
  };

  const productByHandle: OperationHandler = {
    handle: (v) => {
      const identifier = (v.identifier ?? {}) as { handle?: unknown; id?: unknown };
      const handle =
        typeof v.handle === "string" ? v.handle : typeof identifier.handle === "string" ? identifier.handle : null;
      let gid: string | null = typeof identifier.id === "string" ? identifier.id : null;
      if (!gid && handle)
        for (const p of catalog.iterate())
          if (p.handle === handle) {
            gid = p.id;
            break;
          }
      const found = gid ? storefrontProduct(gid, 50) : null;
      return { data: { productByIdentifier: found?.node ?? null }, actualCost: found?.cost ?? 1 };
    },
  };

  const appInstallation: OperationHandler = {
    handle: (v) => {
      const metafields = store
        .list(APP_INSTALLATION_GID, typeof v.namespace === "string" ? v.namespace : null)
        .slice(0, 50);
      const one =
        typeof v.key === "string" && typeof v.namespace === "string"
          ? store.get(APP_INSTALLATION_GID, v.namespace, v.key)
          : null;
      return {
        data: {
          currentAppInstallation: {
            id: APP_INSTALLATION_GID,
            app: { id: `gid://shopify/App/${SIM_APP_ID}` },
            metafields: { nodes: metafields.map((m) => out(m, "API_PERMISSION")) },
            metafield: one ? out(one, "API_PERMISSION") : null,
          },
        },
        actualCost: 1 + 2 + metafields.length,
      };
    },
  };

  const metafieldsSet = mutation((v) => {
    const inputs = Array.isArray(v.metafields) ? (v.metafields as SetInput[]) : [];
    if (inputs.length > METAFIELDS_SET_MAX) {
      return {
        errors: [
          {
            message: `The input array size of ${inputs.length} is greater than the maximum allowed of ${METAFIELDS_SET_MAX}.`,
            path: ["metafieldsSet", "metafields"],
            extensions: { code: "MAX_INPUT_SIZE_EXCEEDED" },
          },
        ],
        actualCost: 10,
      };
    }
    // A malformed global id fails variable coercion: a top-level error, nothing runs.
    const malformed = inputs.findIndex(
      (m) => typeof m.ownerId !== "string" || !/^gid:\/\/shopify\/[A-Za-z]+\/\d+$/.test(m.ownerId),
    );
    if (malformed >= 0) {
      const id = String(inputs[malformed].ownerId);
      return {
        errors: [
          {
            message: `Variable $metafields of type [MetafieldsSetInput!]! was provided invalid value for ${malformed}.ownerId (Invalid global id \`${id}\`)`,
            extensions: {
              code: "INVALID_VARIABLE",
              problems: [{ path: [malformed, "ownerId"], explanation: `Invalid global id \`${id}\`` }],
            },
          },
        ],
        actualCost: 0,
      };
    }
    const { written, userErrors } = store.set(inputs);
    return {
      data: {
        metafieldsSet: {
          metafields: written.map((m) => ({
            ...out(m, m.ownerId.startsWith("gid://shopify/Product/") ? "PRODUCT" : "API_PERMISSION"),
            ownerId: m.ownerId,
          })),
          userErrors,
        },
      },
    };
  });

  const metafieldsDelete = mutation((v) => {
    const ids = Array.isArray(v.metafields)
      ? (v.metafields as { ownerId?: unknown; namespace?: unknown; key?: unknown }[])
      : [];
    if (ids.length > METAFIELDS_DELETE_MAX) {
      return {
        errors: [
          {
            message: `The input array size of ${ids.length} is greater than the maximum allowed of ${METAFIELDS_DELETE_MAX}.`,
            extensions: { code: "MAX_INPUT_SIZE_EXCEEDED" },
          },
        ],
      };
    }
    return { data: { metafieldsDelete: { deletedMetafields: store.delete(ids), userErrors: [] } } };
  });

  /** Both definition mutations answer the definition made (null when refused) and the errors. */
  const definitionAnswer = (
    root: string,
    { definition, userErrors }: { definition: MetafieldDefinition | null; userErrors: UserError[] },
  ) => ({
    data: {
      [root]: {
        createdDefinition: definition && {
          id: definition.id,
          name: definition.name,
          namespace: definition.namespace,
          key: definition.key,
          type: { name: definition.type },
        },
        userErrors,
      },
    },
  });
  const enableDefinition = mutation((v) =>
    definitionAnswer("standardMetafieldDefinitionEnable", store.enableStandard(v.ownerType, v.namespace, v.key)),
  );
  const createDefinition = mutation((v) =>
    definitionAnswer("metafieldDefinitionCreate", store.createDefinition(v.definition)),
  );

  const flowTriggerReceive = mutation((v) => {
    const handle = typeof v.handle === "string" ? v.handle : "";
    const userErrors: { field: string[]; message: string }[] = [];
    if (!handle) userErrors.push({ field: ["handle"], message: "Handle can't be blank" });
    const size = Buffer.byteLength(JSON.stringify(v.payload ?? null), "utf8");
    if (size > FLOW_PAYLOAD_MAX_BYTES)
      userErrors.push({
        field: ["payload"],
        message: `Payload is too large (${size} bytes, the limit is ${FLOW_PAYLOAD_MAX_BYTES})`,
      });
    if (v.payload === null || typeof v.payload !== "object")
      userErrors.push({ field: ["payload"], message: "Payload must be an object" });
    if (userErrors.length === 0)
      store.flowTriggers.push({ handle, payload: structuredClone(v.payload), at: new Date().toISOString() });
    return { data: { flowTriggerReceive: { userErrors } } };
  });

  return {
    name: "metafields",
    operations: {
      StandardMetafieldDefinitionEnable: enableDefinition,
      MetafieldDefinitionCreate: createDefinition,
      MetafieldsSet: metafieldsSet,
      MetafieldsDelete: metafieldsDelete,
      CurrentAppInstallation: appInstallation,
      AppInstallationId: {
        handle: () => ({ data: { currentAppInstallation: { id: APP_INSTALLATION_GID } } }),
      },
      ProductMetafields: productQuery,
      ProductMetafield: productQuery,
      ProductsWithMetafields: productsQuery,
      ProductRatings: productRatings,
      ProductByHandle: productByHandle,
      FlowTriggerReceive: flowTriggerReceive,
    },
    // Documents under other operation names reach these by their first field (a superset answers).
    roots: {
      standardMetafieldDefinitionEnable: enableDefinition,
      metafieldDefinitionCreate: createDefinition,
      metafieldsSet,
      metafieldsDelete,
      currentAppInstallation: appInstallation,
      product: productQuery,
      products: productsQuery,
      productByIdentifier: productByHandle,
      flowTriggerReceive,
    },
  };
}
