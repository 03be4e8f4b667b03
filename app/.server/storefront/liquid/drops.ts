import { Drop } from "liquidjs";

// Liquid objects shaped like Shopify's: `product.metafields.<namespace>.<key>.value` with the value
// parsed by its type (a rating is an object with `rating`, `scale_min`, `scale_max` that prints as
// its value, as Dawn's cards read it), and `app.metafields.<namespace>.<key>.value` of the app
// installation. Callers (the local storefront, tests) hand in metafields as the Admin API returns
// them: namespace, key, type and the value as a string.

export interface RawMetafield {
  namespace: string;
  key: string;
  type: string;
  value: string;
}

export class RatingDrop extends Drop {
  constructor(
    public readonly rating: number,
    public readonly scale_min: number,
    public readonly scale_max: number,
  ) {
    super();
  }
  valueOf() {
    return this.rating;
  }
}

export class MetafieldDrop extends Drop {
  constructor(
    public readonly type: string,
    public readonly value: unknown,
  ) {
    super();
  }
  valueOf() {
    return this.value instanceof RatingDrop ? this.value.rating : this.value;
  }
}

/** The value Liquid sees for a metafield of `type` (undefined when the stored string does not parse). */
export function parseMetafieldValue(type: string, value: string): unknown {
  try {
    switch (type) {
      case "json":
        return JSON.parse(value);
      case "rating": {
        const r = JSON.parse(value) as { value?: unknown; scale_min?: unknown; scale_max?: unknown };
        const n = Number(r.value);
        return Number.isFinite(n) ? new RatingDrop(n, Number(r.scale_min ?? 1), Number(r.scale_max ?? 5)) : undefined;
      }
      case "number_integer":
      case "number_decimal": {
        const n = Number(value);
        return Number.isFinite(n) ? n : undefined;
      }
      case "boolean":
        return value === "true";
      default:
        return value;
    }
  } catch {
    return undefined;
  }
}

/**
 * `{ namespace: { key: MetafieldDrop } }`. An app-owned namespace reaches Liquid both as the app
 * writes it (`$app:reviews`) and as Shopify stores it (`app--<app id>--reviews`).
 */
export function metafieldsDrop(metafields: RawMetafield[]): Record<string, Record<string, MetafieldDrop>> {
  const out: Record<string, Record<string, MetafieldDrop>> = {};
  for (const m of metafields) {
    const value = parseMetafieldValue(m.type, m.value);
    if (value === undefined) continue;
    const names = [m.namespace];
    const owned = /^app--\d+--(.+)$/.exec(m.namespace);
    if (owned) names.push(`$app:${owned[1]}`);
    for (const ns of names) (out[ns] ??= {})[m.key] = new MetafieldDrop(m.type, value);
  }
  return out;
}

export interface ProductInput {
  /** Numeric id or `gid://shopify/Product/<id>`. */
  id: string | number;
  handle: string;
  title: string;
  url?: string;
  metafields?: RawMetafield[];
}

/** The `product` object of a product page. */
export function productDrop(p: ProductInput) {
  const id = Number(String(p.id).replace(/^gid:\/\/shopify\/Product\//, ""));
  return {
    id,
    handle: p.handle,
    title: p.title,
    url: p.url ?? `/products/${p.handle}`,
    metafields: metafieldsDrop(p.metafields ?? []),
  };
}

/** The `app` object of an app block: the installation's app-data metafields. */
export function appDrop(metafields: RawMetafield[]) {
  return { metafields: metafieldsDrop(metafields) };
}
