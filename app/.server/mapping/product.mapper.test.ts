import { createReadStream, readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { generateProducts, productWebhookPayload } from "../../../sandbox/simulated-store";
import { readBulkJsonl } from "../shopify/bulk-operations";
import { defaultSettings, type ShopSettings } from "../settings/settings";
import {
  LIMITS,
  catalogPayloadHash,
  mappedCatalogProductSchema,
  fromBulkProduct,
  fromGraphqlProduct,
  fromWebhookProduct,
  graphqlProductNodeSchema,
  mapDeletedProduct,
  mapProduct,
  mergeCatalogProducts,
  webhookProductDeleteSchema,
  webhookProductSchema,
  type MapContext,
  type ShopifyProductInput,
} from "./product.mapper";
import { fuzzRuns } from "./fuzz.testkit";

const fixturesDir = new URL("../../../test/fixtures/products/", import.meta.url);
const fixture = (name: string): unknown => JSON.parse(readFileSync(new URL(name, fixturesDir), "utf8"));
const webhook = (name: string) => fromWebhookProduct(webhookProductSchema.parse(fixture(name)));

const catalog = (over: Partial<ShopSettings["catalog"]> = {}): ShopSettings["catalog"] => ({
  ...defaultSettings.catalog,
  ...over,
});
const ctx = (over: Partial<ShopSettings["catalog"]> = {}): MapContext => ({
  primaryDomain: "https://shop.example.com",
  settings: catalog(over),
});

const tee = () => webhook("apparel-tee.products-update.json");
const pillow = () => webhook("empty-type-with-taxonomy.products-create.json");
const bare = () => webhook("no-category.products-create.json");
const draft = () => webhook("draft.products-update.json");
const unlisted = () => webhook("unlisted.products-update.json");
const sensor = () => webhook("default-title.products-update.json");
const book = () => webhook("entities-unicode.products-update.json");

async function bulkFixture(selected?: { collections?: boolean; metafields?: boolean }): Promise<ShopifyProductInput[]> {
  const out: ShopifyProductInput[] = [];
  for await (const group of readBulkJsonl(createReadStream(new URL("bulk-products.jsonl", fixturesDir)))) {
    out.push(fromBulkProduct(group, selected));
  }
  return out;
}

describe("product mapper: one test per rule", () => {
  it("sku: the product id through productKey, whatever the input shape", () => {
    expect(mapProduct(tee(), ctx()).sku).toBe("7982135394382");
    const node = graphqlProductNodeSchema.parse(
      (fixture("graphql-product-by-id.json") as { data: { product: unknown } }).data.product,
    );
    expect(mapProduct(fromGraphqlProduct(node), ctx()).sku).toBe("7982135590990");
  });

  it("variants: variantKey of every variant by settings.variantKey, deduplicated", () => {
    expect(mapProduct(tee(), ctx()).variants).toEqual([
      "44120917246030",
      "44120917246031",
      "44120917246032",
      "44120917246033",
      "44120917246034",
      "44120917246035",
    ]);
    expect(mapProduct(tee(), ctx({ variantKey: "sku" })).variants).toEqual([
      "HBT-1042-S-BLA",
      "HBT-1042-M-BLA",
      "HBT-1042-L-BLA",
      "HBT-1042-S-SAN",
      "HBT-1042-M-SAN",
      "HBT-1042-L-SAN",
    ]);
    // A variant without a SKU falls back to its id; two variants sharing a SKU give one key.
    const input = {
      ...tee(),
      variants: [
        { id: "gid://shopify/ProductVariant/1", title: "A", sku: "SAME", barcode: null },
        { id: "gid://shopify/ProductVariant/2", title: "B", sku: "SAME", barcode: null },
        { id: "gid://shopify/ProductVariant/3", title: "C", sku: "  ", barcode: null },
      ],
    };
    expect(mapProduct(input, ctx({ variantKey: "sku" })).variants).toEqual(["SAME", "3"]);
  });

  it("name: the trimmed title, capped at 500 characters", () => {
    expect(mapProduct(book(), ctx()).name).toBe("Café Crème — Éditions Limitées 🍰 日本語版");
    const long = mapProduct({ ...tee(), title: "word ".repeat(400) }, ctx()).name;
    expect(long.length).toBeLessThanOrEqual(LIMITS.name);
    expect(long.endsWith("word")).toBe(true);
  });

  it("brand: the vendor, omitted when empty or null", () => {
    expect(mapProduct(tee(), ctx()).brand).toBe("Harbor & Birch");
    expect(mapProduct(bare(), ctx())).not.toHaveProperty("brand");
    expect(mapProduct({ ...tee(), vendor: null }, ctx())).not.toHaveProperty("brand");
  });

  it("url: primaryDomain + /products/ + handle", () => {
    expect(mapProduct(tee(), ctx()).url).toBe("https://shop.example.com/products/heavyweight-organic-tee");
    expect(mapProduct(tee(), { ...ctx(), primaryDomain: "https://shop.example.com/" }).url).toBe(
      "https://shop.example.com/products/heavyweight-organic-tee",
    );
    expect(mapProduct({ ...tee(), handle: null }, ctx())).not.toHaveProperty("url");
  });

  it("image: the featured image, else the first image; protocol-relative URLs get https", () => {
    expect(mapProduct(tee(), ctx()).image).toBe(
      "https://cdn.shopify.com/s/files/1/0612/4471/9822/files/heavyweight-tee-black.jpg?v=1760448104",
    );
    expect(mapProduct(book(), ctx()).image).toBe(
      "https://cdn.shopify.com/s/files/1/0612/4471/9822/files/cafe-creme.jpg?v=1760448104",
    );
    expect(mapProduct(bare(), ctx())).not.toHaveProperty("image");
    // No `image` object but images listed: the lowest position wins.
    const raw = fixture("apparel-tee.products-update.json") as Record<string, unknown> & {
      images: { position: number }[];
    };
    const reordered = { ...raw, image: null, images: [...raw.images].reverse() };
    expect(mapProduct(fromWebhookProduct(webhookProductSchema.parse(reordered)), ctx()).image).toContain(
      "heavyweight-tee-black.jpg",
    );
  });

  it("description: text of body_html with tags stripped, entities decoded, whitespace collapsed, paragraphs as newlines", () => {
    expect(mapProduct(tee(), ctx()).description).toBe(
      "Our heavyweight organic tee. Garment-dyed for a lived-in feel from the first wear.\n" +
        "100% organic cotton, 240 g/m²\nRelaxed fit & dropped shoulders\nMachine wash cold.",
    );
    expect(mapProduct(book(), ctx()).description).toBe(
      "L’histoire d’un café\nUn livre illustré & signé par l'auteure. Prix : 25 €.\n" +
        "日本語の説明文です。😀 😀 <not a tag> &unknown;",
    );
    expect(mapProduct(sensor(), ctx()).description).toBe(
      "Sensirion SHT30 breakout.\nOperating Voltage 2.4 V - 5.5V\nLength 13mm",
    );
    expect(mapProduct(bare(), ctx())).not.toHaveProperty("description");
  });

  it("descriptionShort: the first sentence, or the first 160 characters at a word boundary", () => {
    expect(mapProduct(tee(), ctx()).descriptionShort).toBe("Our heavyweight organic tee.");
    const run = "lorem ipsum dolor sit amet ".repeat(20);
    const short = mapProduct({ ...tee(), descriptionHtml: `<p>${run}</p>` }, ctx()).descriptionShort!;
    expect(short.length).toBeLessThanOrEqual(160);
    expect(short.endsWith("…")).toBe(true);
    expect(run.startsWith(short.slice(0, -1))).toBe(true);
    expect(run[short.length - 1]).toBe(" "); // cut at a word boundary
    // A "sentence" of a few characters is not a summary.
    expect(
      mapProduct({ ...tee(), descriptionHtml: "<p>New! Our softest tee yet. Really.</p>" }, ctx()).descriptionShort,
    ).toBe("New! Our softest tee yet.");
  });

  it("keywords: the tags, trimmed and deduplicated, omitted when empty", () => {
    expect(mapProduct(tee(), ctx()).keywords).toEqual(["cotton", "organic", "summer", "t-shirt", "Unisex"]);
    expect(mapProduct(book(), ctx()).keywords).toEqual(["café", "livre", "édition limitée", "日本"]);
    expect(mapProduct(bare(), ctx())).not.toHaveProperty("keywords");
  });

  it("externalId: the product GID", () => {
    expect(mapProduct(tee(), ctx()).externalId).toBe("gid://shopify/Product/7982135394382");
    const noGid = { ...(fixture("apparel-tee.products-update.json") as object), admin_graphql_api_id: null };
    expect(mapProduct(fromWebhookProduct(webhookProductSchema.parse(noGid)), ctx()).externalId).toBe(
      "gid://shopify/Product/7982135394382",
    );
  });

  it("status: active for ACTIVE and UNLISTED, inactive for DRAFT, ARCHIVED and anything unknown", () => {
    expect(mapProduct(tee(), ctx()).status).toBe("active");
    expect(mapProduct(unlisted(), ctx()).status).toBe("active");
    expect(mapProduct(draft(), ctx()).status).toBe("inactive");
    expect(mapProduct({ ...tee(), status: "ARCHIVED" }, ctx()).status).toBe("inactive");
    expect(mapProduct({ ...tee(), status: null }, ctx()).status).toBe("inactive");
  });

  it("gtin/ean: the first variant barcode with a valid GS1 check digit; ean only for 13 digits", () => {
    // Variants 1 and 2 carry "" and "12345": the third variant's EAN-13 is the first valid code.
    const tshirt = mapProduct(tee(), ctx());
    expect(tshirt.gtin).toBe("5012345678900");
    expect(tshirt.ean).toBe("5012345678900");
  });

  it("gtin: a UPC-12 goes to gtin only", () => {
    const p = mapProduct(pillow(), ctx());
    expect(p.gtin).toBe("036000291452");
    expect(p).not.toHaveProperty("ean");
  });

  it("gtin/ean: an ISBN-13 is an EAN-13 (hyphens dropped)", () => {
    const p = mapProduct(book(), ctx());
    expect(p.gtin).toBe("9780306406157");
    expect(p.ean).toBe("9780306406157");
  });

  it("gtin/ean: a GraphQL node's typed barcodes (2026-10) are read, a typed EAN preferred to a first ASIN", () => {
    const node = graphqlProductNodeSchema.parse({
      id: "gid://shopify/Product/9",
      title: "Mug",
      variants: {
        nodes: [
          {
            id: "gid://shopify/ProductVariant/91",
            title: "Default Title",
            sku: null,
            barcodes: {
              nodes: [
                { type: "ASIN", value: "B07XJ8C8F5" },
                { type: "EAN", value: "4006381333931" },
              ],
            },
          },
        ],
      },
    });
    const input = fromGraphqlProduct(node);
    expect(input.variants[0]).toMatchObject({ barcode: "B07XJ8C8F5" });
    const p = mapProduct(input, ctx());
    expect(p.gtin).toBe("4006381333931");
    expect(p.ean).toBe("4006381333931");
  });

  it("gtin/ean/mpn: an invalid code is never sent", () => {
    const input = {
      ...tee(),
      variants: [
        { id: "gid://shopify/ProductVariant/1", title: "A", sku: "5012345678901", barcode: "5012345678901" }, // bad check digit
        { id: "gid://shopify/ProductVariant/2", title: "B", sku: "Red shirt M", barcode: "N/A" },
        { id: "gid://shopify/ProductVariant/3", title: "C", sku: null, barcode: "2012345678909" }, // in-store range
      ],
    };
    const p = mapProduct(input, ctx());
    expect(p).not.toHaveProperty("gtin");
    expect(p).not.toHaveProperty("ean");
    expect(p).not.toHaveProperty("mpn");
  });

  it("mpn: the first variant SKU that looks like a part number (no spaces, has a digit, not barcode-shaped)", () => {
    expect(mapProduct(tee(), ctx()).mpn).toBe("HBT-1042-S-BLA");
    expect(mapProduct(draft(), ctx()).mpn).toBe("HBB-2201");
    // "B796,krt105" has a comma: a free-form SKU, not a part number.
    expect(mapProduct(sensor(), ctx())).not.toHaveProperty("mpn");
  });

  it('specifications: one per option with its values joined by ", "', () => {
    expect(mapProduct(tee(), ctx()).specifications).toEqual([
      { name: "Size", value: "S, M, L" },
      { name: "Color", value: "Black, Sand" },
      { name: "Material", value: "Organic cotton" },
    ]);
  });

  it('specifications: the default "Title: Default Title" option is skipped', () => {
    expect(mapProduct(sensor(), ctx())).not.toHaveProperty("specifications");
  });

  it("specifications: configured metafields are added when the input carries them", async () => {
    const [beanie] = await bulkFixture();
    const p = mapProduct(
      beanie,
      ctx({ specificationMetafields: ["custom.material", "custom.care_guide", "custom.absent"] }),
    );
    expect(p.specifications).toEqual([
      { name: "Color", value: "Charcoal, Rust" },
      { name: "Size", value: "One size" },
      { name: "Material", value: "Recycled wool" },
      { name: "Care guide", value: "Hand wash cold\nDry flat" },
    ]);
  });

  it("specifications: omitted when metafields are configured but the input does not carry them (webhook)", () => {
    // The service replaces specifications whole: sending options only would erase the metafield ones.
    expect(mapProduct(tee(), ctx({ specificationMetafields: ["custom.material"] }))).not.toHaveProperty(
      "specifications",
    );
  });

  it("categories: the product type first", () => {
    expect(mapProduct(tee(), ctx()).categories).toEqual(["T-Shirt"]);
  });

  it("categories: the taxonomy category name when the product type is empty", () => {
    expect(mapProduct(pillow(), ctx()).categories).toEqual(["Throw Pillows"]);
    expect(
      mapProduct({ ...pillow(), category: { name: null, fullName: "Home & Garden > Decor > Throw Pillows" } }, ctx())
        .categories,
    ).toEqual(["Throw Pillows"]);
  });

  it('categories: the taxonomy placeholder "Uncategorized" is no category', () => {
    expect(mapProduct(sensor(), ctx({ defaultCategory: "Electronics" })).categories).toEqual(["Electronics"]);
  });

  it("categories: collection titles when neither type nor taxonomy is set (automatic collections skipped)", async () => {
    const [, towels] = await bulkFixture();
    expect(mapProduct(towels, ctx()).categories).toEqual(["Kitchen", "Summer Sale"]);
  });

  it("categories: settings.defaultCategory when nothing else is known; never empty", () => {
    expect(mapProduct(bare(), ctx()).categories).toEqual(["General"]);
    expect(mapProduct(bare(), ctx({ defaultCategory: "Gifts" })).categories).toEqual(["Gifts"]);
  });

  it('strings: trimmed, empty optional fields omitted (never ""), huge strings capped, a long description sent whole', () => {
    const p = mapProduct(
      { ...bare(), title: `  Gift   wrapping \n`, vendor: "   ", descriptionHtml: `<p>${"x".repeat(300_000)} end</p>` },
      ctx(),
    );
    expect(p.name).toBe("Gift wrapping");
    expect(p).not.toHaveProperty("brand");
    expect(p.description).toBe(`${"x".repeat(300_000)} end`);
    const huge = mapProduct({ ...bare(), descriptionHtml: "y".repeat(LIMITS.description + 10) }, ctx());
    expect(huge.description!.length).toBeLessThanOrEqual(LIMITS.description);
    for (const [k, v] of Object.entries(p)) if (typeof v === "string") expect(v, k).not.toBe("");
    expect(mappedCatalogProductSchema.safeParse(p).success).toBe(true);
  });

  it("odd valid input never throws: no image, no variants, 2,048 variants, null vendor, unicode", () => {
    const many = Array.from({ length: 2048 }, (_, i) => ({
      id: `gid://shopify/ProductVariant/${50_000_000_000_000 + i}`,
      title: `Größe ${i}`,
      sku: `V-${i}`,
      barcode: null,
    }));
    const input: ShopifyProductInput = {
      ...book(),
      vendor: null,
      imageUrl: null,
      options: [{ name: "Größe", values: many.map((v) => v.title) }],
      variants: many,
    };
    const p = mapProduct(input, ctx({ variantKey: "sku" }));
    expect(p.variants).toHaveLength(2048);
    expect(p.specifications![0].value.length).toBeLessThanOrEqual(LIMITS.specificationValue);
    expect(p.specifications![0].value.endsWith(", …")).toBe(true);
    const none = mapProduct({ ...bare(), variants: [], options: [] }, ctx());
    expect(none).not.toHaveProperty("variants");
    expect(none.name).toBe("Gift wrapping");
  });

  it("draft and unlisted fixtures map with their status and everything else intact", () => {
    expect(mapProduct(draft(), ctx())).toMatchObject({
      sku: "7982135492686",
      status: "inactive",
      categories: ["Bags"],
      gtin: "8712345678920",
    });
    expect(mapProduct(unlisted(), ctx())).toMatchObject({
      sku: "7982135525454",
      status: "active",
      categories: ["Mugs"],
      internalSku: "HBM-0007",
    });
  });

  it("reference and internalSku: the handle, and the SKU when all variants share one", () => {
    const p = mapProduct(draft(), ctx());
    expect(p.reference).toBe("waxed-canvas-tote");
    expect(p.internalSku).toBe("HBB-2201");
    expect(mapProduct(tee(), ctx())).not.toHaveProperty("internalSku");
  });

  it("mapDeletedProduct: the products/delete payload becomes an inactive product, never a deletion", () => {
    const { id } = webhookProductDeleteSchema.parse(fixture("products-delete.json"));
    expect(mapDeletedProduct(id)).toEqual({ sku: "7982135394382", status: "inactive" });
    expect(mapDeletedProduct("gid://shopify/Product/7982135394382")).toEqual({
      sku: "7982135394382",
      status: "inactive",
    });
  });

  it("catalogPayloadHash: stable across key order and variant order, different when content changes", () => {
    const p = mapProduct(tee(), ctx());
    const shuffled = Object.fromEntries(
      Object.entries({ ...p, variants: [...p.variants!].reverse() }).reverse(),
    ) as typeof p;
    expect(catalogPayloadHash(shuffled)).toBe(catalogPayloadHash(p));
    const renamed: typeof p = { ...p, name: `${p.name}!` };
    const recategorised: typeof p = { ...p, categories: [...p.categories, "Sale"] };
    expect(catalogPayloadHash(renamed)).not.toBe(catalogPayloadHash(p));
    expect(catalogPayloadHash(recategorised)).not.toBe(catalogPayloadHash(p));
    expect(catalogPayloadHash(p)).toMatch(/^[0-9a-f]{64}$/);
  });

  it("mergeCatalogProducts: later scalars win, fields only in the first stay, variants are united (rule 4)", () => {
    type Merged = { sku: string; name?: string; brand?: string; variants?: string[]; status?: "inactive" };
    type Listed = Merged & { categories?: string[] };
    const a: Listed = { sku: "1", name: "Old", brand: "Acme", variants: ["10", "11"], categories: ["A"] };
    const b: Listed = { sku: "1", name: "New", variants: ["11", "12"], status: "inactive", categories: ["B"] };
    expect(mergeCatalogProducts(a, b)).toEqual({
      sku: "1",
      name: "New",
      brand: "Acme",
      variants: ["10", "11", "12"],
      status: "inactive",
      categories: ["B"],
    });
    expect(mergeCatalogProducts(a, mapDeletedProduct(1))).toMatchObject({
      name: "Old",
      status: "inactive",
      variants: ["10", "11"],
    });
    expect(() => mergeCatalogProducts(a, { sku: "2" })).toThrow(/different skus/);
  });
});

describe("product mapper: input shapes", () => {
  it("the GraphQL bulk node set maps product by product, children joined by __parentId", async () => {
    const products = (await bulkFixture()).map((input) => mapProduct(input, ctx()));
    expect(products.map((p) => [p.sku, p.categories, p.status, p.variants?.length])).toEqual([
      ["7982135590990", ["Hats"], "active", 2],
      ["7982135623758", ["Kitchen", "Summer Sale"], "active", 1],
      ["7982135656526", ["Hats"], "inactive", 1],
    ]);
    expect(products[0]).toMatchObject({
      name: "Recycled Wool Beanie",
      brand: "Harbor & Birch",
      url: "https://shop.example.com/products/recycled-wool-beanie",
      image: "https://cdn.shopify.com/s/files/1/0612/4471/9822/files/beanie-charcoal.jpg?v=1760448104",
      gtin: "8712345678906",
      ean: "8712345678906",
      mpn: "HBH-3301-CHA",
      keywords: ["winter", "wool"],
      externalId: "gid://shopify/Product/7982135590990",
    });
    expect(products[2]).not.toHaveProperty("brand");
  });

  it("a bulk result read without collections does not invent the collection fallback", async () => {
    const [, towels] = await bulkFixture({ collections: false, metafields: false });
    expect(towels.collections).toBeNull();
    expect(mapProduct(towels, ctx()).categories).toEqual(["General"]);
  });

  it("a ProductById answer (nodes connections) maps like the bulk line of the same product", async () => {
    const node = graphqlProductNodeSchema.parse(
      (fixture("graphql-product-by-id.json") as { data: { product: unknown } }).data.product,
    );
    const [fromBulk] = await bulkFixture();
    const byId = mapProduct(fromGraphqlProduct(node), ctx());
    const bulk = mapProduct(fromBulk, ctx());
    expect({ ...byId, keywords: undefined }).toEqual({ ...bulk, keywords: undefined });
  });

  it("the webhook and GraphQL shapes of one product map to the same catalog product", () => {
    for (const node of generateProducts(300, 42)) {
      const fromNode = mapProduct(
        fromGraphqlProduct(graphqlProductNodeSchema.parse({ ...node, collections: undefined })),
        ctx(),
      );
      const fromHook = mapProduct(fromWebhookProduct(webhookProductSchema.parse(productWebhookPayload(node))), ctx());
      // Webhooks send tags sorted; everything else must agree.
      expect({ ...fromHook, keywords: fromHook.keywords?.sort() }).toEqual({
        ...fromNode,
        keywords: fromNode.keywords?.sort(),
      });
    }
  });
});

// ---------- property test ----------

const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null });
const text = fc.oneof(
  fc.string(),
  fc.string({ unit: "grapheme", maxLength: 60 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.constantFrom("", " ", "\n\t", "Default Title", "&amp;&#0;&#xD800;&bogus", "<p>", "💥".repeat(3)),
);
const html = fc.oneof(
  text,
  fc
    .array(fc.tuple(fc.constantFrom("p", "li", "br", "td", "script", "strong", "div"), text), { maxLength: 8 })
    .map((parts) => parts.map(([t, s]) => `<${t} class="x">${s}</${t}>`).join("\n")),
  fc.string({ maxLength: 30_000, unit: "grapheme-ascii" }),
);
const barcodeArb = fc.oneof(
  text,
  fc.stringMatching(/^\d{8,14}$/),
  fc.constantFrom("036000291452", "978-0-306-40615-7", "0000000000000"),
);
const webhookArb = fc.record({
  id: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
  title: maybe(text),
  body_html: maybe(html),
  vendor: maybe(text),
  product_type: maybe(text),
  handle: maybe(text),
  status: maybe(fc.constantFrom("active", "draft", "archived", "unlisted", "something-new")),
  tags: maybe(fc.oneof(text, fc.array(text, { maxLength: 5 }))),
  variants: maybe(
    fc.array(
      fc.record({
        id: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
        title: maybe(text),
        sku: maybe(text),
        barcode: maybe(barcodeArb),
        position: maybe(fc.integer({ min: -5, max: 3000 })),
      }),
      { maxLength: 40 },
    ),
  ),
  options: maybe(
    fc.array(fc.record({ name: maybe(text), values: maybe(fc.array(text, { maxLength: 6 })) }), { maxLength: 4 }),
  ),
  images: maybe(fc.array(fc.record({ src: maybe(text) }), { maxLength: 3 })),
  image: maybe(fc.record({ src: maybe(text) })),
  category: maybe(fc.record({ name: maybe(text), full_name: maybe(text) })),
});
const graphqlArb = fc.record({
  id: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }).map((n) => `gid://shopify/Product/${n}`),
  title: maybe(text),
  descriptionHtml: maybe(html),
  vendor: maybe(text),
  productType: maybe(text),
  handle: maybe(text),
  status: maybe(fc.constantFrom("ACTIVE", "DRAFT", "ARCHIVED", "UNLISTED")),
  tags: maybe(fc.array(text, { maxLength: 5 })),
  category: maybe(fc.record({ name: maybe(text), fullName: maybe(text) })),
  featuredMedia: maybe(fc.record({ preview: maybe(fc.record({ image: maybe(fc.record({ url: maybe(text) })) })) })),
  options: maybe(
    fc.array(fc.record({ name: maybe(text), values: maybe(fc.array(text, { maxLength: 6 })) }), { maxLength: 3 }),
  ),
  variants: fc.array(
    fc.record({
      id: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }).map((n) => `gid://shopify/ProductVariant/${n}`),
      title: maybe(text),
      sku: maybe(text),
      barcode: maybe(barcodeArb),
    }),
    { maxLength: 40 },
  ),
  collections: maybe(fc.array(fc.record({ title: maybe(text) }), { maxLength: 4 })),
  metafields: maybe(
    fc.array(
      fc.record({
        namespace: fc.constantFrom("custom", "specs"),
        key: fc.constantFrom("material", "care"),
        value: maybe(text),
        type: maybe(
          fc.constantFrom(
            "single_line_text_field",
            "json",
            "list.single_line_text_field",
            "rich_text_field",
            "dimension",
          ),
        ),
      }),
      { maxLength: 3 },
    ),
  ),
});
const settingsArb = fc.record({
  variantKey: fc.constantFrom("id" as const, "sku" as const),
  defaultCategory: fc.oneof(
    fc.constant("General"),
    text.filter((s) => s.length > 0),
  ),
  specificationMetafields: fc.constantFrom<string[]>([], ["custom.material"], ["custom.material", "specs.care"]),
});

function assertWellFormed(p: ReturnType<typeof mapProduct>) {
  expect(p.sku.length).toBeGreaterThan(0);
  expect(p.name.trim().length).toBeGreaterThan(0);
  expect(p.categories.length).toBeGreaterThan(0);
  for (const c of p.categories) expect(c.trim().length).toBeGreaterThan(0);
  const parsed = mappedCatalogProductSchema.safeParse(p);
  expect(parsed.success, parsed.success ? "" : JSON.stringify(parsed.error.issues)).toBe(true);
  expect((p.description ?? "").length).toBeLessThanOrEqual(LIMITS.description);
  expect(p.name.length).toBeLessThanOrEqual(LIMITS.name);
}

describe("product mapper: property", () => {
  it("random odd-but-valid webhook products never throw and always have sku, name and categories", () => {
    fc.assert(
      fc.property(webhookArb, settingsArb, (payload, settings) => {
        const input = fromWebhookProduct(webhookProductSchema.parse(payload));
        assertWellFormed(mapProduct(input, { primaryDomain: "https://shop.example.com", settings }));
      }),
      { numRuns: fuzzRuns(300) },
    );
  });

  it("random odd-but-valid GraphQL products never throw and always have sku, name and categories", () => {
    fc.assert(
      fc.property(graphqlArb, settingsArb, (node, settings) => {
        const input = fromGraphqlProduct(graphqlProductNodeSchema.parse(node));
        assertWellFormed(mapProduct(input, { primaryDomain: "https://shop.example.com", settings }));
      }),
      { numRuns: fuzzRuns(300) },
    );
  });
});
