// Products are listed by title; two products of a shop may share one ("T-shirt" in two
// collections). Those rows also show the product's key in smaller text so the merchant can tell
// them apart; a title only one product has needs nothing more.

export interface TitledProduct {
  /** The product's title, null when the app does not know it (the key is shown instead). */
  title: string | null;
  /** The catalog key the service knows the product by: unique per product. */
  key: string;
}

/** The titles (compared without case or outer spaces) that more than one product key carries. Pure. */
export function sharedTitles(products: readonly TitledProduct[]): Set<string> {
  const keysByTitle = new Map<string, Set<string>>();
  for (const p of products) {
    if (!p.title) continue;
    const title = normalTitle(p.title);
    const keys = keysByTitle.get(title) ?? new Set<string>();
    keys.add(p.key);
    keysByTitle.set(title, keys);
  }
  return new Set([...keysByTitle].filter(([, keys]) => keys.size > 1).map(([title]) => title));
}

/** Whether this product's row needs its key beside the title. Pure. */
export function needsKey(product: TitledProduct, shared: ReadonlySet<string>): boolean {
  return !product.title || shared.has(normalTitle(product.title));
}

const normalTitle = (title: string) => title.trim().toLocaleLowerCase();
