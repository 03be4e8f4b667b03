import { Rng, mixSeed } from "./random";

// Deterministic, real-shaped Admin GraphQL product nodes. Product i of seed s depends on (s, i)
// only, so the store can produce product 73,412 without producing the 73,411 before it, and a
// bulk file of 100,000 products is generated while it is streamed.

export interface ShopifyVariantNode {
  id: string;
  title: string;
  sku: string;
  /** The first of `barcodes` (Shopify's deprecated single field), or what a merchant left there. */
  barcode: string | null;
  /** Typed barcodes (API 2026-10), up to 20 (null type: none declared); absent: `barcode` untyped-or-typed by shape. */
  barcodes?: { type: BarcodeType | null; value: string }[];
  price: string;
  position: number;
  inventoryQuantity: number;
  selectedOptions: { name: string; value: string }[];
  createdAt: string;
  updatedAt: string;
}

export interface ShopifyProductNode {
  id: string;
  title: string;
  handle: string;
  descriptionHtml: string;
  vendor: string;
  productType: string;
  status: "ACTIVE" | "DRAFT" | "ARCHIVED" | "UNLISTED";
  tags: string[];
  createdAt: string;
  updatedAt: string;
  category: { id: string; name: string; fullName: string } | null;
  featuredMedia: { preview: { image: { url: string } | null } | null } | null;
  options: { id: string; name: string; position: number; values: string[] }[];
  variants: ShopifyVariantNode[];
  collections: { id: string; title: string; handle: string }[];
  metafields: { id: string; namespace: string; key: string; type: string; value: string }[];
}

export const PRODUCT_ID_BASE = 8_100_000_000_000;
const VARIANT_ID_BASE = 46_100_000_000_000;
const OPTION_ID_BASE = 10_500_000_000_000;
const METAFIELD_ID_BASE = 28_100_000_000_000;
export const MAX_VARIANTS_PER_GENERATED_PRODUCT = 8;

const CDN = "https://cdn.shopify.com/s/files/1/0612/4471/9822/files/";
const EPOCH = Date.UTC(2024, 0, 1);

interface Kind {
  noun: string;
  productType: string;
  category: { id: string; name: string; fullName: string };
  dims: [{ name: string; values: string[] }, { name: string; values: string[] }];
  price: [number, number];
}

const COLORS = ["Black", "Sand", "Charcoal", "Rust", "Olive", "Navy", "Écru"];
const SIZES = ["XS", "S", "M", "L", "XL", "XXL"];

const KINDS: Kind[] = [
  {
    noun: "Tee",
    productType: "T-Shirt",
    category: {
      id: "gid://shopify/TaxonomyCategory/aa-1-13-8",
      name: "T-Shirts",
      fullName: "Apparel & Accessories > Clothing > Clothing Tops > T-Shirts",
    },
    dims: [
      { name: "Size", values: SIZES },
      { name: "Color", values: COLORS },
    ],
    price: [19, 45],
  },
  {
    noun: "Hoodie",
    productType: "Hoodies",
    category: {
      id: "gid://shopify/TaxonomyCategory/aa-1-13-13",
      name: "Hoodies",
      fullName: "Apparel & Accessories > Clothing > Clothing Tops > Hoodies",
    },
    dims: [
      { name: "Size", values: SIZES },
      { name: "Color", values: COLORS },
    ],
    price: [49, 95],
  },
  {
    noun: "Beanie",
    productType: "Hats",
    category: {
      id: "gid://shopify/TaxonomyCategory/aa-2-17-1",
      name: "Beanies",
      fullName: "Apparel & Accessories > Clothing Accessories > Hats > Beanies",
    },
    dims: [
      { name: "Color", values: COLORS },
      { name: "Size", values: ["One size", "Kids"] },
    ],
    price: [19, 39],
  },
  {
    noun: "Tote Bag",
    productType: "Bags",
    category: { id: "gid://shopify/TaxonomyCategory/lb-13", name: "Tote Bags", fullName: "Luggage & Bags > Tote Bags" },
    dims: [
      { name: "Color", values: COLORS },
      { name: "Material", values: ["Canvas", "Waxed canvas"] },
    ],
    price: [29, 120],
  },
  {
    noun: "Mug",
    productType: "Mugs",
    category: {
      id: "gid://shopify/TaxonomyCategory/hg-11-10-8-6",
      name: "Mugs",
      fullName: "Home & Garden > Kitchen & Dining > Tableware > Drinkware > Mugs",
    },
    dims: [
      { name: "Color", values: COLORS },
      { name: "Size", values: ["8 oz", "12 oz"] },
    ],
    price: [14, 32],
  },
  {
    noun: "Throw Pillow",
    productType: "Pillows",
    category: {
      id: "gid://shopify/TaxonomyCategory/hg-3-74",
      name: "Throw Pillows",
      fullName: "Home & Garden > Decor > Throw Pillows",
    },
    dims: [
      { name: "Size", values: ["45 x 45 cm", "50 x 50 cm", "40 x 60 cm"] },
      { name: "Color", values: COLORS },
    ],
    price: [25, 60],
  },
  {
    noun: "Candle",
    productType: "Candles",
    category: {
      id: "gid://shopify/TaxonomyCategory/hg-3-10",
      name: "Candles",
      fullName: "Home & Garden > Decor > Home Fragrances > Candles",
    },
    dims: [
      { name: "Scent", values: ["Cedar", "Fig", "Sea salt", "Tobacco & vanilla", "Yuzu"] },
      { name: "Size", values: ["180 g", "300 g"] },
    ],
    price: [18, 48],
  },
  {
    noun: "Notebook",
    productType: "Stationery",
    category: {
      id: "gid://shopify/TaxonomyCategory/os-4-9",
      name: "Notebooks & Notepads",
      fullName: "Office Supplies > General Office Supplies > Paper Products > Notebooks & Notepads",
    },
    dims: [
      { name: "Paper", values: ["Lined", "Dotted", "Blank", "Grid"] },
      { name: "Cover", values: ["Black", "Sand", "Olive"] },
    ],
    price: [9, 29],
  },
  {
    noun: "Sneaker",
    productType: "Shoes",
    category: {
      id: "gid://shopify/TaxonomyCategory/aa-8-8",
      name: "Sneakers",
      fullName: "Apparel & Accessories > Shoes > Sneakers",
    },
    dims: [
      { name: "Size", values: ["38", "39", "40", "41", "42", "43", "44", "45"] },
      { name: "Color", values: COLORS },
    ],
    price: [79, 160],
  },
];

const ADJECTIVES = [
  "Heavyweight",
  "Organic",
  "Recycled",
  "Classic",
  "Waxed",
  "Linen",
  "Merino",
  "Everyday",
  "Vintage",
  "Stoneware",
  "Handmade",
  "Lightweight",
  "Café",
  "Nordic",
  "Über",
  "Kōbō",
];
const VENDORS = ["Harbor & Birch", "Nordlys", "Atelier Çà & Là", "Kōbō Goods", "Acme"];
const TAGS = [
  "new",
  "bestseller",
  "gift",
  "organic",
  "recycled",
  "summer",
  "winter",
  "sale",
  "limited",
  "unisex",
  "éco",
  "手作り",
];
const COLLECTIONS = [
  { id: "gid://shopify/Collection/301234567890", title: "Home page", handle: "frontpage" },
  { id: "gid://shopify/Collection/301234567891", title: "Winter Essentials", handle: "winter-essentials" },
  { id: "gid://shopify/Collection/301234567892", title: "Kitchen", handle: "kitchen" },
  { id: "gid://shopify/Collection/301234567893", title: "Summer Sale", handle: "summer-sale" },
  { id: "gid://shopify/Collection/301234567894", title: "New Arrivals", handle: "new-arrivals" },
  { id: "gid://shopify/Collection/301234567895", title: "Gifts under €50", handle: "gifts-under-50" },
];
const MATERIALS = ["100% organic cotton", "Recycled wool", "Stoneware", "Waxed cotton canvas", "Soy wax", "FSC paper"];
const SENTENCES = [
  "Made in small batches by people who care.",
  "Designed to last for years &amp; to look better with age.",
  "Garment-dyed for a lived-in feel from the first wear.",
  "Ships in plastic-free packaging.",
  "Each piece is slightly different &mdash; that&rsquo;s the charm.",
  "Pairs well with everything else in the shop.",
];

function gs1Check(body: string): string {
  let sum = 0;
  for (let i = body.length - 1, w = 3; i >= 0; i--, w = w === 3 ? 1 : 3) sum += Number(body[i]) * w;
  return String((10 - (sum % 10)) % 10);
}

function barcode(r: Rng): string | null {
  const x = r.float();
  if (x < 0.35) {
    const body = r.pick(["400", "500", "539", "761", "871", "978"]) + r.digits(9);
    return body + gs1Check(body);
  }
  if (x < 0.45) {
    const body = r.pick(["0", "6", "7", "8"]) + r.digits(10);
    return body + gs1Check(body);
  }
  if (x < 0.5) return r.pick(["12345", "N/A", "5012345678901", "see label"]); // junk merchants type in
  return x < 0.75 ? null : "";
}

export type BarcodeType = "UPC" | "EAN" | "ISBN" | "GTIN" | "ASIN";

/**
 * The typed list a merchant's barcode becomes: the standard its shape says (a 978/979 EAN is an
 * ISBN, 12 digits a UPC, 13 an EAN), untyped when it is none of them; empty for no barcode.
 */
export function typedBarcodes(code: string | null): { type: BarcodeType | null; value: string }[] {
  if (!code) return [];
  const valid = /^\d+$/.test(code) && gs1Check(code.slice(0, -1)) === code.slice(-1);
  const type: BarcodeType | null = !valid
    ? null
    : code.length === 12
      ? "UPC"
      : code.length === 13
        ? /^97[89]/.test(code)
          ? "ISBN"
          : "EAN"
        : "GTIN";
  return [{ type, value: code }];
}

function slug(s: string): string {
  return s
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

function iso(ms: number): string {
  // Shopify's timestamps carry no milliseconds (a regular expression here was a third of the
  // generator's time on a 100,000-product bulk result).
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

export function productGidOf(index: number): string {
  return `gid://shopify/Product/${PRODUCT_ID_BASE + index}`;
}

/** The index of a generated product's GID or legacy id, or null when it is not one of ours. */
export function productIndexOf(idOrGid: string | number): number | null {
  const n = Number(String(idOrGid).split("/").pop());
  if (!Number.isSafeInteger(n) || n < PRODUCT_ID_BASE) return null;
  return n - PRODUCT_ID_BASE;
}

/**
 * How many variants, collections and metafields product `index` has, without generating it: these
 * are the first draws of its random stream (the store reports objectCount from this).
 */
export function generatedShape(
  index: number,
  seed: number,
): { variants: number; collections: number; metafields: number } {
  const r = new Rng(mixSeed(seed, index));
  const variants = r.int(1, MAX_VARIANTS_PER_GENERATED_PRODUCT);
  const collections = r.int(0, 3);
  const metafields = (r.chance(0.5) ? 1 : 0) + (r.chance(0.2) ? 1 : 0);
  return { variants, collections, metafields };
}

/** The adjective and noun product `index` draws (the four shape draws first, as below). */
function baseTitle(index: number, seed: number): string {
  const r = new Rng(mixSeed(seed, index));
  r.int(1, MAX_VARIANTS_PER_GENERATED_PRODUCT);
  r.int(0, 3);
  r.chance(0.5);
  r.chance(0.2);
  const kind = r.pick(KINDS);
  return `${r.pick(ADJECTIVES)} ${kind.noun}`;
}

// A real shop rarely gives two products one title, and a list showing the same title twice makes
// the admin fall back on product ids: a title drawn again is told apart by a colour, as a shop would.
const EDITIONS = ["Indigo", "Sand", "Forest", "Charcoal", "Rust", "Ivory", "Slate", "Ochre"];
const drawnTitles = new Map<number, { titles: string[]; seen: Map<string, number>; nth: number[] }>();

/** How many products before `index` drew the same title: 0 for the first. Memoised per seed. */
function earlierDraws(index: number, seed: number): number {
  let memo = drawnTitles.get(seed);
  if (!memo) drawnTitles.set(seed, (memo = { titles: [], seen: new Map(), nth: [] }));
  for (let i = memo.titles.length; i <= index; i++) {
    const t = baseTitle(i, seed);
    const n = memo.seen.get(t) ?? 0;
    memo.seen.set(t, n + 1);
    memo.titles.push(t);
    memo.nth.push(n);
  }
  return memo.nth[index]!;
}

function uniqueTitle(base: string, nth: number): string {
  if (nth === 0) return base;
  const edition = EDITIONS[(nth - 1) % EDITIONS.length]!;
  const round = Math.floor((nth - 1) / EDITIONS.length);
  return `${base}, ${edition}${round ? ` ${round + 1}` : ""}`;
}

/** Product number `index` of the store seeded with `seed`. */
export function generateProduct(index: number, seed: number): ShopifyProductNode {
  const r = new Rng(mixSeed(seed, index));
  // Keep these four draws first and in this order: generatedShape replays them.
  const variantCount = r.int(1, MAX_VARIANTS_PER_GENERATED_PRODUCT);
  const collectionCount = r.int(0, 3);
  const hasMaterial = r.chance(0.5);
  const hasCare = r.chance(0.2);

  const kind = r.pick(KINDS);
  const title = uniqueTitle(`${r.pick(ADJECTIVES)} ${kind.noun}`, earlierDraws(index, seed));
  const id = productGidOf(index);
  const legacy = PRODUCT_ID_BASE + index;
  const handle = `${slug(title)}-${legacy}`;
  const createdAt = EPOCH + index * 3_600_000;
  const updatedAt = createdAt + r.int(0, 30) * 86_400_000;
  const statusRoll = r.float();
  const status =
    statusRoll < 0.85 ? "ACTIVE" : statusRoll < 0.92 ? "DRAFT" : statusRoll < 0.97 ? "ARCHIVED" : "UNLISTED";
  const productType = r.chance(0.25) ? "" : kind.productType;
  const category = r.chance(0.3) ? null : kind.category;
  const vendor = r.chance(0.05) ? "" : r.pick(VENDORS);
  const tags = r.sample(TAGS, r.int(0, 4));
  const description = r.sample(SENTENCES, r.int(0, 3));
  const descriptionHtml = description.length
    ? `<p>${description.join(" ")}</p>${r.chance(0.3) ? `<ul><li>${kind.dims[0].name}: ${kind.dims[0].values.join(", ")}</li></ul>` : ""}`
    : "";
  const featuredMedia = r.chance(0.9) ? { preview: { image: { url: `${CDN}${handle}.jpg?v=1760448104` } } } : null;

  // Variants: the first `variantCount` combinations of the two option dimensions, or a lone
  // "Default Title" variant (what Shopify creates for a product without options).
  const defaultOnly = variantCount === 1 && r.chance(0.5);
  const [d1, d2] = kind.dims;
  const firstValues = r.sample(d1.values, Math.min(d1.values.length, variantCount));
  const secondValues = r.sample(d2.values, Math.ceil(variantCount / firstValues.length));
  const combos: string[][] = [];
  for (const a of firstValues) for (const b of secondValues) combos.push(secondValues.length > 1 ? [a, b] : [a]);
  const chosen = defaultOnly ? [["Default Title"]] : combos.slice(0, variantCount);
  const optionNames = defaultOnly ? ["Title"] : secondValues.length > 1 ? [d1.name, d2.name] : [d1.name];
  const price = r.int(kind.price[0], kind.price[1]);
  const variants: ShopifyVariantNode[] = chosen.map((values, v) => {
    const sku = r.chance(0.75) ? `SIM-${String(index).padStart(6, "0")}-${v + 1}` : "";
    const code = barcode(r);
    return {
      id: `gid://shopify/ProductVariant/${VARIANT_ID_BASE + index * 16 + v}`,
      title: values.join(" / "),
      sku,
      barcode: code,
      barcodes: typedBarcodes(code),
      price: `${price}.00`,
      position: v + 1,
      inventoryQuantity: r.int(-2, 150),
      selectedOptions: values.map((value, k) => ({ name: optionNames[k], value })),
      createdAt: iso(createdAt),
      updatedAt: iso(updatedAt),
    };
  });
  const options = optionNames.map((name, k) => ({
    id: `gid://shopify/ProductOption/${OPTION_ID_BASE + index * 4 + k}`,
    name,
    position: k + 1,
    values: [...new Set(chosen.map((values) => values[k]))],
  }));

  const metafields: ShopifyProductNode["metafields"] = [];
  if (hasMaterial) {
    metafields.push({
      id: `gid://shopify/Metafield/${METAFIELD_ID_BASE + index * 4}`,
      namespace: "custom",
      key: "material",
      type: "single_line_text_field",
      value: r.pick(MATERIALS),
    });
  }
  if (hasCare) {
    metafields.push({
      id: `gid://shopify/Metafield/${METAFIELD_ID_BASE + index * 4 + 1}`,
      namespace: "custom",
      key: "care_guide",
      type: "multi_line_text_field",
      value: "Wash cold\nDry flat",
    });
  }

  return {
    id,
    title,
    handle,
    descriptionHtml,
    vendor,
    productType,
    status,
    tags,
    createdAt: iso(createdAt),
    updatedAt: iso(updatedAt),
    category,
    featuredMedia,
    options,
    variants,
    collections: r.sample(COLLECTIONS, collectionCount),
    metafields,
  };
}

/** Products 0..n-1 of `seed`. Materialises them: for large stores iterate `generateProduct` instead. */
export function generateProducts(n: number, seed: number): ShopifyProductNode[] {
  return Array.from({ length: n }, (_, i) => generateProduct(i, seed));
}
