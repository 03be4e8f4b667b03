import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CATALOG_BATCH_MAX_BYTES,
  catalogBatchBodySchema,
  catalogProductSchema as clientCatalogProductSchema,
} from "../reviews";
import { shopSettingsSchema, type ShopSettings } from "../settings/settings";
import { anyText, bodyDefect, fuzzRuns, leaves, longText, maybe, oddText } from "./fuzz.testkit";
import { legacyId } from "./keys";
import { SHORT_DESCRIPTION_MAX } from "./product.text";
import {
  LIMITS,
  catalogPayloadHash,
  mappedCatalogProductSchema,
  fromBulkProduct,
  fromWebhookProduct,
  mapDeletedProduct,
  mapProduct,
  webhookProductDeleteSchema,
  webhookProductSchema,
  type MapContext,
  type MappedCatalogProduct,
} from "./product.mapper";

// Fuzz: thousands of odd but valid Shopify products, as products/create|update webhooks and as
// bulk-operation lines, through the same parse → adapt → map path the workers use. Whatever the
// product, the mapper must not throw and must produce a catalog product the service accepts as a
// NEW product: the reviews client's own request schema, the batch body schema and size limit,
// `name` and non-empty `categories` (spec rule 5), and the caps of LIMITS on every field.
//
// Within Shopify's own limits (title, handle, SKU, tag: 255 characters; 250 tags; 3 options;
// 2,048 variants) except where a cap of ours must hold whatever arrives: titles, descriptions,
// vendors, types, option values and metafield values also come huge.

const RUNS = fuzzRuns(1_500);
/**
 * A product of a few hundred KB maps in milliseconds; a quadratic rule takes seconds to minutes on
 * the inputs below. The bound is far from both, so a loaded machine cannot make it flaky.
 */
const MAX_MAP_MS = 3_000;

interface VariantModel {
  id: number;
  title: string | null;
  sku: string | null;
  barcode: string | null;
  position: number | null;
}

interface ProductModel {
  id: number;
  withGid: boolean;
  title: string | null;
  bodyHtml: string | null;
  vendor: string | null;
  productType: string | null;
  handle: string | null;
  status: string | null;
  tags: string[] | null;
  tagsAsString: boolean;
  category: { name: string | null; fullName: string | null } | null;
  image: string | null;
  variants: VariantModel[];
  options: { name: string | null; values: string[] | null }[] | null;
  collections: (string | null)[];
  metafields: { namespace: string; key: string; value: string | null; type: string | null }[];
}

const productId = fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER });
const variantId = fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER });
/** Text capped by Shopify at 255 (title, handle, SKU, tag) but odd in every other way. */
const shortText = fc.oneof({ weight: 10, arbitrary: oddText }, { weight: 1, arbitrary: longText(200, 255) });

const html = fc.oneof(
  { weight: 4, arbitrary: anyText(120_000) },
  {
    weight: 4,
    arbitrary: fc
      .array(
        fc.tuple(
          fc.constantFrom("p", "li", "br", "td", "h2", "script", "style", "strong", "div", "table", "!--"),
          oddText,
        ),
        { maxLength: 10 },
      )
      .map((parts) =>
        parts
          .map(([tag, s]) => (tag === "!--" ? `<!-- ${s} -->` : `<${tag} style="color:red">${s}</${tag}>`))
          .join("\n"),
      ),
  },
  { weight: 1, arbitrary: longText(20_000, 120_000).map((s) => `<p>${s}</p><p>second paragraph</p>`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "<p>Unclosed <b>bold",
      "<!-- never closed",
      "&#1114112;&#xFFFFFF;&#55296;",
      "<p>\u00a0</p>",
      "<br/><br/>",
    ),
  },
  // Tags opened and never closed, tens of thousands of them (text pasted from a broken editor).
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom("<p", "<td", "<a", "<script>", "<b ", "<style "), fc.integer({ min: 5_000, max: 40_000 }))
      .map(([open, n]) => `<p>Intro.</p>${open.repeat(n)}`),
  },
);

/** JSON metafield values nested far deeper than any template reads (valid JSON, small in bytes). */
const deepJson = fc.tuple(fc.integer({ min: 1, max: 20_000 }), fc.boolean()).map(([depth, richText]) => {
  if (!richText) return `${"[".repeat(depth)}"deep"${"]".repeat(depth)}`;
  return `${'{"type":"root","children":['.repeat(depth)}{"type":"text","value":"deep"}${"]}".repeat(depth)}`;
});

const barcode = maybe(
  fc.oneof(
    oddText,
    fc.stringMatching(/^\d{8,14}$/),
    fc.constantFrom(
      "036000291452",
      "978-0-306-40615-7",
      "4006381333931",
      "0000000000000",
      "0 12345 67890 5",
      "96385074",
    ),
  ),
);

const sku = maybe(fc.oneof(shortText, fc.constantFrom("TR2-BLU-42", "SKU 1", "  ", "A1", "0123456789012")));

const smallVariants = fc.array(
  fc.record({
    id: variantId,
    title: maybe(shortText),
    sku,
    barcode,
    position: maybe(fc.integer({ min: -3, max: 3000 })),
  }),
  { maxLength: 12 },
);

/** 1,000-2,048 variants built in one go (generating each would dominate the run time). */
const manyVariants = fc
  .record({
    count: fc.integer({ min: 1_000, max: 2_048 }),
    firstId: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER - 3_000 }),
    skus: fc.constantFrom("none", "unique", "shared", "unicode", "max-length"),
    title: fc.constantFrom("Größe", "مقاس", "😀", "x".repeat(200)),
  })
  .map(({ count, firstId, skus, title }) =>
    Array.from({ length: count }, (_, i): VariantModel => {
      const skuOf: Record<string, string | null> = {
        none: null,
        unique: `V-${i}`,
        shared: "SAME-SKU",
        unicode: `𝔘-${i}-ש`,
        "max-length": `${i}-`.padEnd(255, "Z"),
      };
      return {
        id: firstId + i,
        title: `${title} ${i}`,
        sku: skuOf[skus],
        barcode: i % 97 === 0 ? "4006381333931" : null,
        position: i + 1,
      };
    }),
  );

const options = maybe(
  fc.array(fc.record({ name: maybe(shortText), values: maybe(fc.array(anyText(5_000), { maxLength: 6 })) }), {
    maxLength: 3,
  }),
);

const imageUrl = maybe(
  fc.oneof(
    fc.constantFrom(
      "https://cdn.shopify.com/s/files/1/0001/products/tee.jpg",
      "//cdn.shopify.com/s/files/1/0001/products/tee.jpg",
      "",
      " ",
    ),
    longText(2_000, 3_000).map((s) => `https://cdn.shopify.com/${encodeURIComponent(s)}`),
    oddText,
  ),
);

const productModel: fc.Arbitrary<ProductModel> = fc
  .record({
    id: productId,
    withGid: fc.boolean(),
    title: maybe(anyText(100_000)),
    bodyHtml: maybe(html),
    vendor: maybe(anyText(20_000)),
    productType: maybe(anyText(20_000)),
    handle: maybe(fc.oneof(fc.constantFrom("classic-tee", "t-shirt-größe", "مقاس", "a".repeat(255)), shortText)),
    status: maybe(fc.constantFrom("active", "draft", "archived", "unlisted", "ACTIVE", "something-new")),
    tags: maybe(
      fc.oneof(
        { weight: 8, arbitrary: fc.array(shortText, { maxLength: 8 }) },
        { weight: 1, arbitrary: fc.array(shortText, { minLength: 200, maxLength: 250 }) },
      ),
    ),
    tagsAsString: fc.boolean(),
    category: maybe(
      fc.record({
        name: maybe(shortText),
        fullName: maybe(fc.oneof(shortText, fc.constantFrom("Apparel > Shirts > T-Shirts", "Uncategorized", " > "))),
      }),
    ),
    image: imageUrl,
    variants: fc.oneof({ weight: 20, arbitrary: smallVariants }, { weight: 1, arbitrary: manyVariants }),
    options,
    collections: fc.array(maybe(fc.oneof(shortText, fc.constantFrom("Home page", "Frontpage", "All", "Summer"))), {
      maxLength: 14,
    }),
    metafields: fc.array(
      fc.record({
        namespace: fc.constantFrom("custom", "specs"),
        key: fc.constantFrom("material", "care"),
        value: maybe(
          fc.oneof(
            anyText(30_000),
            fc.constantFrom(
              '["a","b"]',
              '{"value":3,"unit":"KILOGRAMS"}',
              "gid://shopify/Metaobject/1",
              "{not json",
              '{"type":"root","children":"x"}',
              '{"children":null}',
            ),
            deepJson,
          ),
        ),
        type: maybe(
          fc.constantFrom(
            "single_line_text_field",
            "multi_line_text_field",
            "json",
            "list.single_line_text_field",
            "rich_text_field",
            "weight",
            "metaobject_reference",
          ),
        ),
      }),
      { maxLength: 3 },
    ),
  })
  .map((m) => {
    // A 2,048-variant product lists its option values like Shopify does: one per variant.
    if (m.variants.length >= 1_000)
      return { ...m, options: [{ name: "Size", values: m.variants.map((v) => v.title ?? "") }] };
    return m;
  });

const settings: fc.Arbitrary<MapContext> = fc
  .record({
    variantKey: fc.constantFrom("id" as const, "sku" as const),
    defaultCategory: fc.oneof(
      fc.constant("General"),
      oddText.filter((s) => s.length > 0),
      longText(300, 1_000),
    ),
    specificationMetafields: fc.constantFrom([], ["custom.material"], ["custom.material", "specs.care"]),
    primaryDomain: fc.constantFrom(
      "https://shop.example.com",
      "https://shop.example.com/",
      "https://xn--bcher-kva.example",
      "http://127.0.0.1:3000",
    ),
  })
  .map(({ primaryDomain, ...catalog }) => ({
    primaryDomain,
    settings: shopSettingsSchema.parse({ catalog }).catalog as ShopSettings["catalog"],
  }));

// ---------- the two shapes a product arrives in ----------

/** products/create|update as the REST webhook delivers it. */
function webhookPayload(m: ProductModel): Record<string, unknown> {
  return {
    id: m.id,
    ...(m.withGid ? { admin_graphql_api_id: `gid://shopify/Product/${m.id}` } : {}),
    title: m.title,
    body_html: m.bodyHtml,
    vendor: m.vendor,
    product_type: m.productType,
    handle: m.handle,
    status: m.status,
    tags: m.tags === null ? null : m.tagsAsString ? m.tags.join(", ") : m.tags,
    created_at: "2026-11-01T10:00:00-05:00",
    updated_at: "2026-11-20T10:00:00-05:00",
    published_at: null,
    template_suffix: null,
    variants: m.variants.map((v) => ({
      id: v.id,
      product_id: m.id,
      admin_graphql_api_id: `gid://shopify/ProductVariant/${v.id}`,
      title: v.title,
      sku: v.sku,
      barcode: v.barcode,
      position: v.position,
      price: "19.00",
      compare_at_price: null,
      option1: v.title,
      option2: null,
      option3: null,
      inventory_quantity: 3,
    })),
    options:
      m.options?.map((o, i) => ({ id: i + 1, product_id: m.id, name: o.name, position: i + 1, values: o.values })) ??
      [],
    images: m.image === null ? [] : [{ id: 1, position: 1, src: m.image, alt: null, width: 800, height: 800 }],
    image: m.image === null ? null : { id: 1, position: 1, src: m.image },
    media: [],
    category: m.category && {
      admin_graphql_api_id: "gid://shopify/TaxonomyCategory/aa-1-13-8",
      name: m.category.name,
      full_name: m.category.fullName,
    },
  };
}

/** The same product as bulk-operation JSONL lines: a parent and its children by GID type. */
function bulkGroup(m: ProductModel): { parent: Record<string, unknown>; children: Record<string, unknown>[] } {
  const gid = `gid://shopify/Product/${m.id}`;
  return {
    parent: {
      id: gid,
      title: m.title,
      handle: m.handle,
      descriptionHtml: m.bodyHtml,
      vendor: m.vendor,
      productType: m.productType,
      status: m.status?.toUpperCase() ?? null,
      tags: m.tags,
      updatedAt: "2026-11-20T15:00:00Z",
      category: m.category && {
        id: "gid://shopify/TaxonomyCategory/aa-1-13-8",
        name: m.category.name,
        fullName: m.category.fullName,
      },
      featuredMedia: m.image === null ? null : { preview: { image: { url: m.image } } },
      options:
        m.options?.map((o) => ({ name: o.name, optionValues: (o.values ?? []).map((name) => ({ name })) })) ?? null,
    },
    children: [
      ...m.variants.map((v) => ({
        id: `gid://shopify/ProductVariant/${v.id}`,
        title: v.title,
        sku: v.sku,
        barcode: v.barcode,
        __parentId: gid,
      })),
      ...m.collections.map((title, i) => ({ id: `gid://shopify/Collection/${i + 1}`, title, __parentId: gid })),
      ...m.metafields.map((f, i) => ({
        id: `gid://shopify/Metafield/${i + 1}`,
        namespace: f.namespace,
        key: f.key,
        value: f.value,
        type: f.type,
        __parentId: gid,
      })),
    ],
  };
}

// ---------- what the service may receive ----------

function checkNewProduct(p: MappedCatalogProduct, m: ProductModel, ctx: MapContext): void {
  const defect = bodyDefect(p);
  expect(defect, defect ?? "").toBeNull();

  // The reviews client validates with these before sending: a failure would be a dead letter.
  const client = clientCatalogProductSchema.safeParse(p);
  expect(client.success, client.success ? "" : JSON.stringify(client.error.issues.slice(0, 3))).toBe(true);
  const body = { products: [p] };
  expect(catalogBatchBodySchema.safeParse(body).success).toBe(true);
  expect(Buffer.byteLength(JSON.stringify(body))).toBeLessThanOrEqual(CATALOG_BATCH_MAX_BYTES);
  const own = mappedCatalogProductSchema.safeParse(p);
  expect(own.success, own.success ? "" : JSON.stringify(own.error.issues.slice(0, 3))).toBe(true);

  // Rule 5: a new product needs a name and categories.
  expect(p.name.length).toBeGreaterThan(0);
  expect(p.categories.length).toBeGreaterThan(0);

  for (const [path, leaf] of leaves(p)) if (typeof leaf === "string") expect(leaf.trim(), path).toBe(leaf);
  expect(p.sku).toBe(String(m.id));
  expect(p.externalId).toBe(`gid://shopify/Product/${m.id}`);
  expect(p.status).toBe(["active", "unlisted"].includes((m.status ?? "").toLowerCase()) ? "active" : "inactive");

  expect(p.name.length).toBeLessThanOrEqual(LIMITS.name);
  expect(p.categories.length).toBeLessThanOrEqual(LIMITS.categories);
  for (const c of p.categories) expect(c.length).toBeLessThanOrEqual(LIMITS.category);
  expect(new Set(p.categories).size).toBe(p.categories.length);
  expect((p.brand ?? "").length).toBeLessThanOrEqual(LIMITS.brand);
  expect((p.description ?? "").length).toBeLessThanOrEqual(LIMITS.description);
  expect((p.descriptionShort ?? "").length).toBeLessThanOrEqual(SHORT_DESCRIPTION_MAX);
  if (p.descriptionShort) expect(p.description).toBeDefined();
  expect(p.keywords?.length ?? 0).toBeLessThanOrEqual(LIMITS.keywords);
  for (const k of p.keywords ?? []) expect(k.length).toBeLessThanOrEqual(LIMITS.keyword);
  for (const field of ["url", "image", "reference"] as const)
    expect((p[field] ?? "").length, field).toBeLessThanOrEqual(LIMITS.url);
  if (p.url) {
    const url = new URL(p.url);
    expect(url.origin).toBe(new URL(ctx.primaryDomain).origin);
    expect(url.pathname.startsWith("/products/")).toBe(true);
  }
  if (p.image) expect(p.image.startsWith("//")).toBe(false);
  expect(p.specifications?.length ?? 0).toBeLessThanOrEqual(LIMITS.specifications);
  for (const s of p.specifications ?? []) {
    expect(s.name.length).toBeLessThanOrEqual(LIMITS.specificationName);
    expect(s.value.length).toBeLessThanOrEqual(LIMITS.specificationValue);
  }
  for (const code of ["mpn", "internalSku"] as const)
    expect((p[code] ?? "").length, code).toBeLessThanOrEqual(LIMITS.code);
  if (p.gtin) expect(p.gtin).toMatch(/^(\d{8}|\d{12,14})$/);
  if (p.ean) expect(p.ean).toMatch(/^\d{13}$/);

  const variants = p.variants ?? [];
  expect(new Set(variants).size).toBe(variants.length);
  expect(variants.length).toBeLessThanOrEqual(m.variants.length);
  if (m.variants.length > 0) expect(variants.length).toBeGreaterThan(0);
  if (ctx.settings.variantKey === "id") expect(variants.every((v) => /^\d+$/.test(v))).toBe(true);
  else for (const v of variants) expect(v.length).toBeLessThanOrEqual(255);
}

describe("product mapper fuzz: odd but valid Shopify products", () => {
  it(`products/create|update webhooks (${RUNS} runs) map to a product the service accepts as new`, () => {
    fc.assert(
      fc.property(productModel, settings, (m, ctx) => {
        const payload = webhookPayload(m);
        const parsed = webhookProductSchema.parse(payload);
        const before = JSON.stringify(parsed);
        const started = performance.now();
        const product = mapProduct(fromWebhookProduct(parsed), ctx);
        expect(performance.now() - started, "one product maps in linear time").toBeLessThan(MAX_MAP_MS);
        expect(JSON.stringify(parsed), "the payload is not mutated").toBe(before);
        checkNewProduct(product, m, ctx);
        expect(catalogPayloadHash(mapProduct(fromWebhookProduct(parsed), ctx))).toBe(catalogPayloadHash(product));
      }),
      // No shrinking: a slow case would be re-run hundreds of times; the first counterexample is enough.
      { numRuns: RUNS, endOnFailure: true },
    );
  }, 120_000);

  it(`bulk-operation lines (${Math.ceil(RUNS / 2)} runs) map to a product the service accepts as new`, () => {
    fc.assert(
      fc.property(productModel, settings, (m, ctx) => {
        const product = mapProduct(fromBulkProduct(bulkGroup(m)), ctx);
        checkNewProduct(product, m, ctx);
      }),
      { numRuns: Math.ceil(RUNS / 2), endOnFailure: true },
    );
  }, 120_000);

  // Found by this fuzz, fixed, kept as examples.
  describe("regressions", () => {
    const ctx: MapContext = {
      primaryDomain: "https://shop.example.com",
      settings: shopSettingsSchema.parse({ catalog: { specificationMetafields: ["custom.material"] } }).catalog,
    };
    const base = {
      id: "gid://shopify/Product/1",
      title: "Tee",
      handle: "tee",
      vendor: null,
      productType: "Shirts",
      status: "ACTIVE",
      tags: [],
      category: null,
      imageUrl: null,
      options: [],
      variants: [],
      collections: [],
      updatedAt: null,
    };
    const withMetafield = (value: string, type: string) => ({
      ...base,
      descriptionHtml: null,
      metafields: [{ namespace: "custom", key: "material", value, type, name: null }],
    });

    it("a description of 40,000 tags opened and never closed maps in milliseconds (was 30 s: every opener scanned to the end)", () => {
      for (const open of ["<p", "<td", "<a", "<script>"]) {
        const started = performance.now();
        const p = mapProduct(
          { ...base, descriptionHtml: `<p>Intro.</p>${open.repeat(40_000)}`, metafields: null },
          ctx,
        );
        expect(performance.now() - started, open).toBeLessThan(MAX_MAP_MS);
        expect(p.description?.startsWith("Intro.")).toBe(true);
      }
    });

    it("a JSON metafield nested 20,000 deep maps without it (was a stack overflow)", () => {
      const deep = `${"[".repeat(20_000)}"deep"${"]".repeat(20_000)}`;
      expect(mapProduct(withMetafield(deep, "json"), ctx).specifications).toBeUndefined();
      expect(mapProduct(withMetafield('[["cotton", ["linen"]]]', "json"), ctx).specifications).toEqual([
        { name: "Material", value: "cotton, linen" },
      ]);
    });

    it("rich text whose children is not a list maps without it (was a TypeError)", () => {
      expect(
        mapProduct(withMetafield('{"type":"root","children":"x"}', "rich_text_field"), ctx).specifications,
      ).toBeUndefined();
    });
  });

  it("products/delete of any id becomes an inactive product keyed like the catalog", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          productId,
          productId.map((n) => `gid://shopify/Product/${n}`),
          productId.map(String),
        ),
        (id) => {
          const { id: parsed } = webhookProductDeleteSchema.parse({ id });
          const product = mapDeletedProduct(parsed);
          expect(product).toEqual({ sku: legacyId(id), status: "inactive" });
          expect(clientCatalogProductSchema.safeParse(product).success).toBe(true);
        },
      ),
      { numRuns: fuzzRuns(300) },
    );
  });
});
