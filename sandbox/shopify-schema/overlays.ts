// What Shopify has published about an API version that the schema package does not carry yet.
// @shopify/dev-mcp 1.16.0 (the newest on the registry on 2026-11-29) ships admin_2026-10 without
// the typed variant barcodes that Shopify's changelog announces for 2026-10 and its reference
// documents (ProductVariantBarcode, BarcodeType, ProductVariantBarcodeConnection). Each overlay
// adds exactly what that documentation describes, to the versions it names, and only while the
// packaged schema lacks it: once a refreshed package has it, the overlay does nothing and
// schema.test.ts says to remove it.

export interface IntrospectionTypeRef {
  kind: string;
  name: string | null;
  ofType: IntrospectionTypeRef | null;
}

export interface RawField {
  name: string;
  description?: string | null;
  args?: unknown[];
  type?: IntrospectionTypeRef;
  isDeprecated?: boolean;
  deprecationReason?: string | null;
  isProtected?: boolean;
  protectedContent?: string | null;
  [k: string]: unknown;
}

export interface RawType {
  kind: string;
  name: string;
  fields?: RawField[] | null;
  enumValues?: { name: string; description?: string | null; isDeprecated?: boolean }[] | null;
  [k: string]: unknown;
}

export interface ScopeItem {
  type: "type" | "field";
  typeName: string;
  fieldName?: string;
  offlineScopes: string[];
}

export interface RawSchema {
  data: { __schema: { types: RawType[]; [k: string]: unknown } };
  offline_scopes: { items: ScopeItem[] };
}

export interface SchemaOverlay {
  name: string;
  /** Where Shopify documents it. */
  source: string;
  /** API versions it applies to ("unstable" included). */
  appliesTo(version: string): boolean;
  /** Whether the packaged schema already has it (then it is not applied). */
  present(raw: RawSchema): boolean;
  apply(raw: RawSchema): void;
}

const named = (kind: string, name: string): IntrospectionTypeRef => ({ kind, name, ofType: null });
const nonNull = (of: IntrospectionTypeRef): IntrospectionTypeRef => ({ kind: "NON_NULL", name: null, ofType: of });
const listOf = (of: IntrospectionTypeRef): IntrospectionTypeRef => ({ kind: "LIST", name: null, ofType: of });

function field(name: string, type: IntrospectionTypeRef, description: string, args: unknown[] = []): RawField {
  return { name, description, args, type, isDeprecated: false, deprecationReason: null, isProtected: false };
}

function objectType(name: string, description: string, fields: RawField[]): RawType {
  return { kind: "OBJECT", name, description, fields, inputFields: null, interfaces: [], enumValues: null };
}

const PAGE_ARGS = [
  ["first", "Int", "The first `n` elements from the paginated list."],
  ["after", "String", "The elements that come after the specified cursor."],
  ["last", "Int", "The last `n` elements from the paginated list."],
  ["before", "String", "The elements that come before the specified cursor."],
  ["reverse", "Boolean", "Reverse the order of the underlying list."],
].map(([name, type, description]) => ({
  name,
  description,
  type: named("SCALAR", type),
  defaultValue: name === "reverse" ? "false" : null,
  isDeprecated: false,
  deprecationReason: null,
}));

const versionAtLeast = (min: string) => (version: string) => version === "unstable" || version >= min;

export const OVERLAYS: SchemaOverlay[] = [
  {
    name: "ProductVariant.barcodes (typed barcodes; barcode deprecated)",
    source: "https://shopify.dev/changelog/product-variant-barcode-is-being-replaced-by-barcodes",
    appliesTo: versionAtLeast("2026-10"),
    present: (raw) => raw.data.__schema.types.some((t) => t.name === "ProductVariantBarcode"),
    apply(raw) {
      const types = raw.data.__schema.types;
      const barcode = named("OBJECT", "ProductVariantBarcode");
      types.push(
        {
          kind: "ENUM",
          name: "BarcodeType",
          description: "The identifier standard that a barcode value conforms to.",
          fields: null,
          inputFields: null,
          interfaces: null,
          enumValues: ["ASIN", "EAN", "GTIN", "ISBN", "UPC"].map((name) => ({
            name,
            description: null,
            isDeprecated: false,
            deprecationReason: null,
          })),
        },
        objectType("ProductVariantBarcode", "A barcode associated with a product variant.", [
          field("type", named("ENUM", "BarcodeType"), "The standard the barcode conforms to; null: none declared."),
          field("value", nonNull(named("SCALAR", "String")), "The value of the barcode."),
        ]),
        objectType("ProductVariantBarcodeEdge", "One ProductVariantBarcode and a cursor during pagination.", [
          field("cursor", nonNull(named("SCALAR", "String")), "The position of each node in an array."),
          field("node", nonNull(barcode), "The item at the end of ProductVariantBarcodeEdge."),
        ]),
        objectType("ProductVariantBarcodeConnection", "Paginates through multiple ProductVariantBarcodes.", [
          field(
            "edges",
            nonNull(listOf(nonNull(named("OBJECT", "ProductVariantBarcodeEdge")))),
            "The connection between the node and its parent.",
          ),
          field("nodes", nonNull(listOf(nonNull(barcode))), "The nodes of the edges."),
          field("pageInfo", nonNull(named("OBJECT", "PageInfo")), "Information to aid in pagination."),
        ]),
      );
      const variant = types.find((t) => t.name === "ProductVariant");
      if (!variant?.fields) throw new Error("schema overlay: ProductVariant not found");
      variant.fields.push(
        field(
          "barcodes",
          nonNull(named("OBJECT", "ProductVariantBarcodeConnection")),
          "The variant's barcodes (up to 20), each with the standard it conforms to.",
          PAGE_ARGS,
        ),
      );
      const old = variant.fields.find((f) => f.name === "barcode");
      if (old) {
        old.isDeprecated = true;
        old.deprecationReason = "Use `barcodes` instead.";
      }
      raw.offline_scopes.items.push({
        type: "type",
        typeName: "ProductVariantBarcode",
        offlineScopes: ["read_products"],
      });
    },
  },
];

/** The overlays for `version` that the packaged schema lacks, applied in place. */
export function applyOverlays(raw: RawSchema, version: string): SchemaOverlay[] {
  const applied = OVERLAYS.filter((o) => o.appliesTo(version) && !o.present(raw));
  for (const o of applied) o.apply(raw);
  return applied;
}
