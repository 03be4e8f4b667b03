import type { ShopSettings } from "../settings";
import { productGid, productKey, variantKey } from "./keys";
import { productCodes } from "./product.codes";
import type { ShopifyProductInput } from "./product.input";
import type { MappedCatalogProduct, MappedProductFields } from "./product.schemas";
import { capText, clean, htmlToText, shortDescription } from "./product.text";

export type { GraphqlProductNode, MappedCatalogProduct, MappedProductFields, WebhookProduct } from "./product.schemas";
export {
  graphqlProductNodeSchema,
  mappedCatalogProductSchema,
  webhookProductDeleteSchema,
  webhookProductSchema,
} from "./product.schemas";
// The catalog sync (workers, app/.server/catalog) reads the adapters and the payload rules here too.
export { fromBulkProduct, fromGraphqlProduct, fromWebhookProduct, type ShopifyProductInput } from "./product.input";
export { catalogPayloadHash, mergeCatalogProducts } from "./product.payload";

// Shopify product (webhook or GraphQL) → catalog product of the reviews service. Pure: no I/O, no
// clock, so a product maps the same way in a webhook, a backfill and a test.

/**
 * Caps, in UTF-16 units. The service states no field limits; these keep one odd product (2,048
 * variant values, a tag list pasted from a spreadsheet) from making a batch exceed 10 MB or be
 * rejected. The description goes whole (the service's AI summary and answers read it): its cap only
 * keeps one product far below the 10 MB body, well above what a Shopify description holds.
 */
export const LIMITS = {
  name: 500,
  description: 1_000_000,
  brand: 255,
  category: 255,
  categories: 10,
  keyword: 255,
  keywords: 250, // Shopify's own tag limit
  url: 2_048,
  specificationName: 255,
  specificationValue: 1_000,
  specifications: 100,
  code: 70,
} as const;

export type ProductStatus = "ACTIVE" | "DRAFT" | "ARCHIVED" | "UNLISTED";

export interface MapContext {
  /** The shop's primary domain with scheme, e.g. https://shop.example.com. */
  primaryDomain: string;
  settings: ShopSettings["catalog"];
}

// ---------- mapping rules ----------

const DEFAULT_OPTION = { name: "Title", value: "Default Title" };
// Shopify's automatic collections that say nothing about what a product is.
const NON_CATEGORY_COLLECTIONS = new Set(["home page", "frontpage", "all", "all products"]);
// The taxonomy's placeholder (gid://shopify/TaxonomyCategory/na) is "no category".
const NON_CATEGORY_TAXONOMY = new Set(["uncategorized"]);

function byTagOrder(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  if (x !== y) return x < y ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function dedupe(values: Iterable<string>): string[] {
  return [...new Set(values)];
}

export type CategorySource = "type" | "taxonomy" | "collections" | "default";

/**
 * The category rule: the first non-empty source wins, so a product's categories come from one
 * place: product type → taxonomy category `name` (the leaf; `fullName`'s last segment when name is
 * missing) → collection titles (up to 10, automatic ones skipped) → settings.defaultCategory.
 */
export function categoriesWithSource(
  input: ShopifyProductInput,
  defaultCategory: string,
): { categories: string[]; from: CategorySource } {
  const one = (s: string | null | undefined) => clean(s, LIMITS.category);
  const type = one(input.productType);
  if (type) return { categories: [type], from: "type" };
  const leaf = one(input.category?.name) ?? one(input.category?.fullName?.split(">").pop());
  if (leaf && !NON_CATEGORY_TAXONOMY.has(leaf.toLowerCase())) return { categories: [leaf], from: "taxonomy" };
  const titles = dedupe(
    (input.collections ?? [])
      .map((t) => one(t))
      .filter((t): t is string => !!t && !NON_CATEGORY_COLLECTIONS.has(t.toLowerCase())),
  ).slice(0, LIMITS.categories);
  if (titles.length > 0) return { categories: titles, from: "collections" };
  return { categories: [one(defaultCategory) ?? "General"], from: "default" };
}

export function categoriesOf(input: ShopifyProductInput, defaultCategory: string): string[] {
  return categoriesWithSource(input, defaultCategory).categories;
}

/**
 * Shopify's updatedAt of the product version (epoch ms, whole seconds: webhook payloads carry no
 * more, so a product read back through GraphQL compares as the same version), when the input has one.
 */
export function sourceUpdatedAtOf(input: Pick<ShopifyProductInput, "updatedAt">): number | undefined {
  const at = input.updatedAt ? Date.parse(input.updatedAt) : Number.NaN;
  return Number.isFinite(at) ? Math.floor(at / 1000) * 1000 : undefined;
}

function isDefaultOptionOnly(options: ShopifyProductInput["options"]): boolean {
  return (
    options.length === 1 &&
    options[0].name === DEFAULT_OPTION.name &&
    options[0].values.length === 1 &&
    options[0].values[0] === DEFAULT_OPTION.value
  );
}

/** Joins values with ", " without cutting a value in half when the cap is reached. */
function joinCapped(values: string[], max: number): string {
  const more = ", …";
  let out = "";
  for (let i = 0; i < values.length; i++) {
    const next = out ? `${out}, ${values[i]}` : values[i];
    // Leave room for the ", …" that says values were left out, unless this is the last one.
    const room = i === values.length - 1 ? max : max - more.length;
    if (next.length > room) return out ? `${out}${more}` : capText(values[i], max, true);
    out = next;
  }
  return out;
}

/** Human text of a metafield value; null for values that are not text (references, files). */
export function metafieldText(value: string, type: string | null): string | null {
  const t = type ?? "";
  if (/reference/.test(t) || /^gid:\/\//.test(value)) return null;
  if (
    t === "rich_text_field" ||
    t === "json" ||
    /^list\./.test(t) ||
    /^(dimension|weight|volume|rating|money)$/.test(t)
  ) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      return value;
    }
    return jsonText(parsed);
  }
  if (t === "multi_line_text_field") return value.replace(/\s*\n\s*/g, "\n");
  return value;
}

/**
 * How deep a JSON metafield is read. Templates read a level or two; a value nested thousands deep
 * (valid JSON, a few KB) would otherwise overflow the stack and make the product unmappable.
 */
const MAX_JSON_DEPTH = 32;

function jsonText(v: unknown, depth = 0): string | null {
  if (v == null || depth > MAX_JSON_DEPTH) return null;
  if (typeof v === "string") return /^gid:\/\//.test(v) ? null : v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  if (Array.isArray(v)) {
    const parts = v.map((x) => jsonText(x, depth + 1)).filter((x): x is string => !!x);
    return parts.length ? parts.join(", ") : null;
  }
  if (typeof v === "object") {
    const o = v as Record<string, unknown>;
    if ("value" in o && "unit" in o) return `${String(o.value)} ${String(o.unit).toLowerCase()}`;
    if ("amount" in o && "currency_code" in o) return `${String(o.amount)} ${String(o.currency_code)}`;
    if ("value" in o && "scale_max" in o) return `${String(o.value)}/${String(o.scale_max)}`;
    // Rich text: a tree of { type, children, value }; keep the text leaves.
    if (o.type === "root" || Array.isArray(o.children)) {
      const texts: string[] = [];
      const walk = (n: unknown, level: number) => {
        if (n && typeof n === "object" && level <= MAX_JSON_DEPTH) {
          const node = n as { value?: unknown; children?: unknown[] };
          if (typeof node.value === "string") texts.push(node.value);
          if (Array.isArray(node.children)) for (const child of node.children) walk(child, level + 1);
        }
      };
      walk(o, depth);
      return texts.join(" ").trim() || null;
    }
  }
  return null;
}

function humanKey(key: string): string {
  const s = key.replace(/[_-]+/g, " ").trim();
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/**
 * Specifications: one `{name, value}` per option (values joined by ", "; the lone "Title: Default
 * Title" option of a variant-less product skipped), then each configured metafield
 * ("namespace.key", in settings order) that the input carries with a text value. Named by the
 * metafield definition's name, else by its key ("care_guide" → "Care guide").
 */
export function specificationsOf(
  input: ShopifyProductInput,
  metafieldKeys: readonly string[],
): { name: string; value: string }[] {
  const specs: { name: string; value: string }[] = [];
  if (!isDefaultOptionOnly(input.options)) {
    for (const o of input.options) {
      const name = clean(o.name, LIMITS.specificationName);
      const values = dedupe(o.values.map((v) => clean(v)).filter((v): v is string => !!v));
      if (name && values.length) specs.push({ name, value: joinCapped(values, LIMITS.specificationValue) });
    }
  }
  for (const wanted of metafieldKeys) {
    const [namespace, key] = wanted.split(".");
    const m = input.metafields?.find((f) => f.namespace === namespace && f.key === key);
    if (!m) continue;
    const text = metafieldText(m.value, m.type);
    const value = text ? capText(text.trim(), LIMITS.specificationValue, true) : "";
    const name = clean(m.name, LIMITS.specificationName) ?? humanKey(key);
    if (value && name) specs.push({ name, value });
  }
  return specs.slice(0, LIMITS.specifications);
}

function absoluteImage(url: string | null): string | undefined {
  const u = clean(url);
  if (!u || u.length > LIMITS.url) return undefined;
  // Older REST payloads carry protocol-relative CDN URLs.
  return u.startsWith("//") ? `https:${u}` : u;
}

function productUrl(primaryDomain: string, handle: string | null): string | undefined {
  const h = clean(handle);
  if (!h) return undefined;
  const url = `${primaryDomain.trim().replace(/\/+$/, "")}/products/${encodeURIComponent(h)}`;
  return url.length <= LIMITS.url ? url : undefined;
}

/** ACTIVE and UNLISTED products can be bought (UNLISTED by direct link); the rest cannot. */
export function statusOf(status: string | null): "active" | "inactive" {
  return status === "ACTIVE" || status === "UNLISTED" ? "active" : "inactive";
}

/**
 * The catalog product for one Shopify product. Every rule is a small function above; this puts
 * them together and drops empty optional fields. Extra choices:
 * - `reference` is the handle (what the merchant sees in the admin and storefront URL);
 * - `internalSku` is the merchant's SKU when all variants share one non-empty SKU;
 * - `specifications` are omitted (left unchanged upstream, rule 1) when metafield specifications
 *   are configured but the input does not carry metafields (a webhook), because the service
 *   replaces specifications whole and would lose them; and, like every list, when empty (an empty
 *   list is not known to be accepted; the cost is a stale specification after all options go).
 */
export function mapProduct(input: ShopifyProductInput, ctx: MapContext): MappedCatalogProduct {
  const sku = productKey(input.id);
  const text = capText(htmlToText(input.descriptionHtml), LIMITS.description, true);
  const short = text ? shortDescription(text) : "";
  // Sorted case-insensitively, as Shopify lists tags: webhooks and GraphQL must give the same order,
  // or the same product would look changed and be sent again.
  const keywords = dedupe(input.tags.map((t) => clean(t, LIMITS.keyword)).filter((t): t is string => !!t))
    .sort(byTagOrder)
    .slice(0, LIMITS.keywords);
  const variants = dedupe(input.variants.map((v) => variantKey(v, ctx.settings.variantKey)));
  const codes = productCodes(input.variants);
  const skus = dedupe(input.variants.map((v) => v.sku?.trim() ?? ""));
  const metafieldKeys = ctx.settings.specificationMetafields;
  const specsKnown = metafieldKeys.length === 0 || input.metafields !== null;
  const specifications = specsKnown ? specificationsOf(input, metafieldKeys) : null;

  const product: MappedCatalogProduct = {
    sku,
    name: clean(input.title, LIMITS.name) ?? clean(input.handle, LIMITS.name) ?? `Product ${sku}`,
    categories: categoriesOf(input, ctx.settings.defaultCategory),
    status: statusOf(input.status),
  };
  const optional: Omit<MappedProductFields, "sku" | "name" | "categories" | "status"> = {
    brand: clean(input.vendor, LIMITS.brand),
    url: productUrl(ctx.primaryDomain, input.handle),
    image: absoluteImage(input.imageUrl),
    description: text || undefined,
    descriptionShort: short || undefined,
    keywords: keywords.length ? keywords : undefined,
    ean: codes.ean,
    gtin: codes.gtin,
    mpn: codes.mpn,
    reference: clean(input.handle, LIMITS.url),
    internalSku: skus.length === 1 && skus[0] ? capText(skus[0], LIMITS.code) : undefined,
    externalId: input.id.startsWith("gid://") ? input.id : productGid(input.id),
    variants: variants.length ? variants : undefined,
    specifications: specifications?.length ? specifications : undefined,
  };
  for (const [k, v] of Object.entries(optional)) if (v !== undefined) (product as Record<string, unknown>)[k] = v;
  return product;
}

/** A deleted product is never deleted upstream (its reviews would be orphaned): it goes inactive. */
export function mapDeletedProduct(productId: string | number | bigint): MappedProductFields & { status: "inactive" } {
  return { sku: productKey(productId), status: "inactive" };
}
