import { DEMO_ACCOUNT, demoReviewsClient } from "./demo";

// Reviews for the demo, as shoppers would leave them through the storefront (the service's Client
// API): a couple of dozen on the demo catalog, waiting for moderation, so the embedded admin's
// moderation queue has work to show. They are written by the demo's buyers, so the service names
// each writer as it would a real one (from their latest order: "Lucas M."), never "Customer";
// each buyer reviews a product they did not order, and Ana Souza (the printed flows' customer)
// none, so no printed flow meets an "already reviewed".

const TEXTS = [
  [5, "Exactly as described, lovely quality. The stitching is neat and it washed well."],
  [4, "Good value and it arrived two days early. Runs a little large, so size down."],
  [2, "Smaller than I expected from the photos, and the colour is duller in daylight."],
  [5, "Bought a second one for a friend after a month of daily use. Still looks new."],
  [3, "Fine for the price, nothing special. Packaging was mostly paper, which I liked."],
  [1, "The seam came apart after a week. Support answered quickly, but I want a refund."],
  [4, "Comfortable from day one. I would give five stars if it came in more colours."],
  [5, "Gift for my partner, who has barely taken it off since. Great customer service too."],
] as const;

/** The demo account's printed customer (sandbox/dev-local/demo-account.ts): her flows stay open. */
const PRINTED_CUSTOMER = "7001";

interface StateOrder {
  userId?: string;
  email?: string;
  name?: string;
  items: { sku?: string; productId?: string }[];
}

/** Writers for the demo's pending reviews: buyers with a name, and what they already ordered. Pure. */
export function demoWriters(orders: readonly StateOrder[]): { userId: string; email: string; ordered: Set<string> }[] {
  const byEmail = new Map<string, { userId: string; email: string; ordered: Set<string> }>();
  for (const o of orders) {
    if (!o.email || !o.userId || !o.name || o.userId === PRINTED_CUSTOMER) continue;
    const writer = byEmail.get(o.email) ?? { userId: o.userId, email: o.email, ordered: new Set<string>() };
    for (const item of o.items) for (const k of [item.sku, item.productId]) if (k) writer.ordered.add(k);
    byEmail.set(o.email, writer);
  }
  return [...byEmail.values()];
}

export async function seedDemoReviews(options: {
  emulatorOrigin: string;
  count?: number;
  say: (line: string) => void;
}): Promise<number> {
  const client = demoReviewsClient(options.emulatorOrigin);
  const state = (await (
    await fetch(`${options.emulatorOrigin}/__emulator/state?customer=${DEMO_ACCOUNT.customer}`)
  ).json()) as { products: { sku: string }[]; orders: StateOrder[] };
  const writers = demoWriters(state.orders);
  if (!writers.length) throw new Error("demo reviews: the reviews service holds no demo buyer to write them");
  const count = Math.min(options.count ?? 24, state.products.length);
  let written = 0;
  for (let i = 0; written < count && i < state.products.length; i++) {
    const sku = state.products[i].sku;
    // The next buyer who did not order this product.
    const writer = [...writers.keys()]
      .map((k) => writers[(written + k) % writers.length])
      .find((w) => !w.ordered.has(sku));
    if (!writer) continue;
    const [rating, text] = TEXTS[written % TEXTS.length];
    await client.storefront.submitReview(sku, {
      userId: writer.userId,
      email: writer.email,
      rating,
      text,
      source: "web",
    });
    written++;
  }
  options.say(`${written} demo reviews left on the storefront, waiting for moderation in the embedded admin`);
  return written;
}

/** The reviews waiting for moderation at the service: what the admin's queue shows, and the demo prints. */
export async function pendingAtService(emulatorOrigin: string): Promise<number> {
  const state = (await (
    await fetch(`${emulatorOrigin}/__emulator/state?customer=${DEMO_ACCOUNT.customer}`)
  ).json()) as { reviews: { status: string }[] };
  return state.reviews.filter((r) => r.status === "pending").length;
}
