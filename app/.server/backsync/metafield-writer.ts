import type { Logger } from "pino";
import { type AdminGraphql, METAFIELDS_DELETE, METAFIELDS_SET, ShopifyUserErrors, type UserError } from "../shopify";
import { chunk, type MetafieldInput } from "./rating-metafields";

// Writes metafields in calls of 25 (what `metafieldsSet` takes), packed across products so that a
// run makes ceil(metafields / 25) calls. Each call is atomic at Shopify: a product deleted meanwhile
// refuses its whole call (userError on `ownerId`), so that product is taken out and the rest of the
// call sent again; the product is reported as missing (skip and record, never retry it). The cost
// budget is the Admin client's: it waits for the bucket before each call (shopify/throttle.ts) and
// retries a THROTTLED answer after the wait Shopify reports.

export const METAFIELDS_PER_CALL = 25;
const DELETES_PER_CALL = 250;

interface SetAnswer {
  metafieldsSet: {
    metafields: { id: string }[] | null;
    userErrors: (UserError & { elementIndex?: number | null })[];
  } | null;
}

export interface WriterStats {
  calls: number;
  metafields: number;
}

/** What happened to one product's metafields. */
export type ProductOutcome =
  { productKey: string; result: "written" } | { productKey: string; result: "missing" | "refused"; reason: string };

export class MetafieldBatcher {
  private buffer: { productKey: string; input: MetafieldInput }[] = [];
  private readonly left = new Map<string, number>();
  readonly stats: WriterStats = { calls: 0, metafields: 0 };

  constructor(
    private readonly gql: AdminGraphql,
    private readonly log: Logger,
    /** Told once per product when its last metafield is written, or when it was taken out. */
    private readonly onOutcome: (outcomes: ProductOutcome[]) => Promise<void>,
  ) {}

  /** Queues one product's metafields; full calls go out at once. */
  async add(productKey: string, inputs: MetafieldInput[]): Promise<void> {
    if (inputs.length === 0) return;
    this.left.set(productKey, (this.left.get(productKey) ?? 0) + inputs.length);
    for (const input of inputs) this.buffer.push({ productKey, input });
    while (this.buffer.length >= METAFIELDS_PER_CALL) await this.send(this.buffer.splice(0, METAFIELDS_PER_CALL));
  }

  /** Sends what is left (the last, partial call). */
  async flush(): Promise<void> {
    while (this.buffer.length > 0) await this.send(this.buffer.splice(0, METAFIELDS_PER_CALL));
  }

  private async send(entries: { productKey: string; input: MetafieldInput }[]): Promise<void> {
    const outcomes: ProductOutcome[] = [];
    let pending = entries;
    while (pending.length > 0) {
      this.stats.calls++;
      const data = await this.gql.query<SetAnswer>(METAFIELDS_SET, { metafields: pending.map((e) => e.input) });
      const errors = data.metafieldsSet?.userErrors ?? [];
      if (errors.length === 0) {
        this.stats.metafields += pending.length;
        for (const e of pending) {
          const n = (this.left.get(e.productKey) ?? 1) - 1;
          if (n <= 0) {
            this.left.delete(e.productKey);
            outcomes.push({ productKey: e.productKey, result: "written" });
          } else this.left.set(e.productKey, n);
        }
        break;
      }
      // Take out the products the errors name, and send the rest again.
      const out = new Map<string, ProductOutcome>();
      for (const error of errors) {
        const index = typeof error.elementIndex === "number" ? error.elementIndex : Number(error.field?.[1]);
        const entry = Number.isInteger(index) ? pending[index] : undefined;
        if (!entry) throw new ShopifyUserErrors("metafieldsSet", this.gql.shop, errors);
        const missing = error.field?.includes("ownerId") ?? false;
        out.set(entry.productKey, {
          productKey: entry.productKey,
          result: missing ? "missing" : "refused",
          reason: error.message,
        });
      }
      for (const o of out.values()) {
        if (o.result === "refused")
          this.log.error(
            { product: o.productKey, reason: "reason" in o ? o.reason : "" },
            "metafieldsSet refused a product's metafields",
          );
        this.left.delete(o.productKey);
        outcomes.push(o);
      }
      pending = pending.filter((e) => !out.has(e.productKey));
      // The product's metafields still waiting for a later call go too.
      this.buffer = this.buffer.filter((e) => !out.has(e.productKey));
    }
    if (outcomes.length) await this.onOutcome(outcomes);
  }
}

/** Removes metafields (a product with no published review left); absent ones are not an error. */
export async function deleteMetafields(
  gql: AdminGraphql,
  ids: { ownerId: string; namespace: string; key: string }[],
): Promise<number> {
  let calls = 0;
  for (const part of chunk(ids, DELETES_PER_CALL)) {
    calls++;
    const data = await gql.query<{ metafieldsDelete: { userErrors: UserError[] } | null }>(METAFIELDS_DELETE, {
      metafields: part,
    });
    const errors = data.metafieldsDelete?.userErrors ?? [];
    if (errors.length) throw new ShopifyUserErrors("metafieldsDelete", gql.shop, errors);
  }
  return calls;
}
