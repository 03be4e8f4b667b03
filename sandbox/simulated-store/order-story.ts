import type { FinancialStatus, OrderBook, OrderChange, OrderWebhook, SimFulfillment } from "./orders";
import type { SimChannel, SimConsentState } from "./consent";
import { Rng, mixSeed } from "./random";
import { storefrontBuyer, type StorefrontCustomer } from "./storefront-customers";

// The offline demo's order story: a few dozen orders placed in the simulated store, then paid,
// shipped, partly shipped, delivered (a fulfillment event with status `delivered`) or cancelled,
// interleaved the way a busy shop's day mixes them. Every change goes out as the webhooks Shopify
// sends for it, through `deliver` (the demo posts them, signed, to the running app).
//
// Which orders end how is fixed by `count` (the shares below); the seed picks the buyers, the
// products, which order gets which ending and the interleaving. Each ending names the status the
// service must end up holding, so a reader of the service can check the story against it.

/** How an order's story ends. */
export type OrderFate = "pending" | "authorized" | "paid" | "shipped" | "partially shipped" | "delivered" | "cancelled";

/** The version-2 status each ending must leave upstream. */
export const FATE_STATUS: Record<OrderFate, string> = {
  pending: "created",
  authorized: "authorized",
  paid: "paid",
  shipped: "shipped",
  "partially shipped": "shipped",
  delivered: "delivered",
  cancelled: "cancelled",
};

// Shares of the story's orders, in 36ths: the demo's 36 orders get exactly these.
const SHARES: [OrderFate, number][] = [
  ["pending", 3],
  ["authorized", 3],
  ["paid", 6],
  ["shipped", 6],
  ["partially shipped", 6],
  ["delivered", 8],
  ["cancelled", 4],
];

/** How many orders of `count` get each ending (largest remainders, so they always add up). */
export function fateCounts(count: number): Map<OrderFate, number> {
  const total = SHARES.reduce((s, [, w]) => s + w, 0);
  const exact = SHARES.map(([fate, w]) => ({ fate, value: (count * w) / total }));
  const counts = new Map(exact.map((e) => [e.fate, Math.floor(e.value)]));
  let left = count - [...counts.values()].reduce((a, b) => a + b, 0);
  for (const e of [...exact].sort((a, b) => (b.value % 1) - (a.value % 1))) {
    if (left-- <= 0) break;
    counts.set(e.fate, counts.get(e.fate)! + 1);
  }
  return counts;
}

export interface StoryOrder {
  /** The Shopify order id (legacy), as the service knows it with the default settings. */
  id: string;
  name: string;
  fate: OrderFate;
  /** What the story did to it, in order ("placed, paid, shipped 1 of 2 lines"). */
  steps: string[];
  expectedStatus: string;
  /** The buyer's marketing consent per channel at the end of the story (lowercase); null: a guest. */
  consent: Partial<Record<SimChannel, string>> | null;
}

export interface StoryOutcome {
  orders: StoryOrder[];
  /** Deliveries per topic. */
  webhooks: Record<string, number>;
  /** Deliveries never answered 200 (after retries). */
  notAcknowledged: number;
}

// After the orders, some buyers change their mind, each change sent as Shopify's consent webhook:
// the app must correct their orders upstream.
const CONSENT_CHANGES: { channel: SimChannel; state: SimConsentState; label: string }[] = [
  { channel: "email", state: "UNSUBSCRIBED", label: "unsubscribed from e-mail" },
  { channel: "sms", state: "SUBSCRIBED", label: "subscribed to SMS" },
  { channel: "whatsapp", state: "SUBSCRIBED", label: "subscribed to WhatsApp" },
  { channel: "sms", state: "UNSUBSCRIBED", label: "unsubscribed from SMS" },
];

/** POSTs one delivery, returns the HTTP status; the story retries a non-200 a few times. */
export type StoryDeliver = (topic: string, payload: Record<string, unknown>) => Promise<number>;

type Step = (s: PlanState) => { change: OrderChange; label: string };

interface PlanState {
  book: OrderBook;
  id: number;
  shipments: SimFulfillment[];
}

function placeStep(rng: Rng, productCount: number, financialStatus: FinancialStatus, lineCount: number) {
  const lines = Array.from({ length: lineCount }, () => ({
    productIndex: rng.int(0, productCount - 1),
    variantIndex: rng.int(0, 3),
    quantity: rng.chance(0.2) ? 2 : 1,
  }));
  // Returning customers, first-time ones and guests.
  const customerIndex = rng.chance(0.15) ? null : rng.int(0, 24);
  return (s: PlanState) => {
    const change = s.book.place({ lines, customerIndex, financialStatus });
    s.id = change.order.id;
    return {
      change,
      label: financialStatus === "PAID" ? "placed and paid" : `placed (${financialStatus.toLowerCase()})`,
    };
  };
}

const payStep = (s: PlanState) => ({ change: s.book.pay(s.id), label: "paid" });

function fulfilStep(which: "all" | "first line" | "the rest") {
  return (s: PlanState) => {
    const order = s.book.get(s.id)!;
    const lineIds = which === "first line" ? [order.lines[0]!.id] : undefined;
    const change = s.book.fulfil(s.id, { lineIds });
    s.shipments.push(change.fulfillment);
    return { change, label: which === "all" ? "shipped" : `shipped ${which}` };
  };
}

function deliverStep(shipment: number) {
  return (s: PlanState) => ({
    change: s.book.deliver(s.id, { fulfillmentId: s.shipments[shipment]!.id }),
    label: `shipment ${shipment + 1} delivered`,
  });
}

const cancelStep = (s: PlanState) => ({ change: s.book.cancel(s.id), label: "cancelled" });

function planFor(fate: OrderFate, rng: Rng, productCount: number, variant: number): Step[] {
  switch (fate) {
    case "pending":
      return [placeStep(rng, productCount, "PENDING", rng.int(1, 2))];
    case "authorized":
      return [placeStep(rng, productCount, "AUTHORIZED", rng.int(1, 2))];
    case "paid":
      // Paid at checkout, or authorized and captured later.
      return variant % 2
        ? [placeStep(rng, productCount, "AUTHORIZED", 1), payStep]
        : [placeStep(rng, productCount, "PAID", rng.int(1, 2))];
    case "shipped":
      return [placeStep(rng, productCount, "PAID", rng.int(1, 2)), fulfilStep("all")];
    case "partially shipped":
      return [placeStep(rng, productCount, "PAID", rng.int(2, 3)), fulfilStep("first line")];
    case "delivered":
      // Every fourth goes in two parcels, each delivered on its own.
      return variant % 4 === 3
        ? [
            placeStep(rng, productCount, "PAID", 2),
            fulfilStep("first line"),
            fulfilStep("the rest"),
            deliverStep(0),
            deliverStep(1),
          ]
        : [placeStep(rng, productCount, "PAID", rng.int(1, 2)), fulfilStep("all"), deliverStep(0)];
    case "cancelled":
      // Unpaid ones are voided, paid ones refunded.
      return [placeStep(rng, productCount, variant % 2 ? "PAID" : "PENDING", rng.int(1, 2)), cancelStep];
  }
}

/**
 * Runs the story on `book` (which must know the store's products: `productCount` > 0), delivering
 * each change's webhooks in the order Shopify sends them.
 */
export async function runOrderStory(o: {
  book: OrderBook;
  count: number;
  seed: number;
  deliver: StoryDeliver;
  retries?: number;
}): Promise<StoryOutcome> {
  if (o.book.productCount < 1) throw new Error("order story: the book needs the store's products");
  const rng = new Rng(mixSeed(o.seed, 0x5707));
  const fates: OrderFate[] = [];
  for (const [fate, n] of fateCounts(o.count)) for (let i = 0; i < n; i++) fates.push(fate);
  // Which order (by position of its first step) gets which ending.
  for (let i = fates.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [fates[i], fates[j]] = [fates[j]!, fates[i]!];
  }
  const seen = new Map<OrderFate, number>();
  const plans = fates.map((fate, i) => {
    // The n-th order of an ending: how it gets there varies with n (paid at checkout or later...).
    const variant = seen.get(fate) ?? 0;
    seen.set(fate, variant + 1);
    const steps = planFor(fate, new Rng(mixSeed(o.seed, 0x5708, i)), o.book.productCount, variant);
    const state: PlanState = { book: o.book, id: 0, shipments: [] };
    return { fate, steps, state, done: 0, labels: [] as string[] };
  });

  const webhooks: Record<string, number> = {};
  let notAcknowledged = 0;
  const send = async (w: OrderWebhook) => {
    webhooks[w.topic] = (webhooks[w.topic] ?? 0) + 1;
    for (let attempt = 0; attempt <= (o.retries ?? 3); attempt++) {
      if ((await o.deliver(w.topic, w.payload)) === 200) return;
    }
    notAcknowledged++;
  };

  // Orders are placed in turn; between placements, orders already placed move on at random.
  let placed = 0;
  for (;;) {
    const open = plans.filter((p, i) => i < placed && p.done < p.steps.length);
    if (!open.length && placed === plans.length) break;
    const next = placed < plans.length && (!open.length || rng.chance(0.45)) ? plans[placed++]! : rng.pick(open);
    const { change, label } = next.steps[next.done++]!(next.state);
    next.labels.push(label);
    for (const w of change.webhooks) await send(w);
  }

  // Consent changes of buyers of the story's orders (the first change that fits each, seeded).
  const crng = new Rng(mixSeed(o.seed, 0xc025));
  const buyers = [
    ...new Set(plans.map((p) => o.book.get(p.state.id)!.customer?.id).filter((id): id is number => id !== undefined)),
  ];
  for (let i = buyers.length - 1; i > 0; i--) {
    const j = crng.int(0, i);
    [buyers[i], buyers[j]] = [buyers[j]!, buyers[i]!];
  }
  const consentLabels = new Map<number, string[]>();
  for (const change of CONSENT_CHANGES) {
    const buyer = buyers.find((id) => {
      const c = o.book.customerConsent(id)?.channels[change.channel];
      return c && c.state !== change.state && !consentLabels.has(id);
    });
    if (buyer === undefined) continue;
    consentLabels.set(buyer, [change.label]);
    await send(o.book.changeConsent(buyer, change.channel, change.state));
  }

  return {
    orders: plans.map((p) => {
      const order = o.book.get(p.state.id)!;
      const customer = order.customer ? o.book.customerConsent(order.customer.id) : null;
      const consent = customer
        ? Object.fromEntries(
            Object.entries(customer.channels).flatMap(([channel, c]) => (c ? [[channel, c.state.toLowerCase()]] : [])),
          )
        : null;
      const steps = [
        ...p.labels,
        ...(order.customer ? (consentLabels.get(order.customer.id) ?? []).map((l) => `buyer ${l}`) : []),
      ];
      return {
        id: String(order.id),
        name: `#${order.number}`,
        fate: p.fate,
        steps,
        expectedStatus: FATE_STATUS[p.fate],
        consent,
      };
    }),
    webhooks,
    notAcknowledged,
  };
}

/** Expected orders per upstream status, in the order the statuses progress. */
export function expectedByStatus(orders: readonly StoryOrder[]): Map<string, number> {
  const out = new Map<string, number>(
    ["created", "authorized", "paid", "shipped", "delivered", "cancelled"].map((s) => [s, 0]),
  );
  for (const order of orders) out.set(order.expectedStatus, (out.get(order.expectedStatus) ?? 0) + 1);
  return out;
}

/**
 * An order of a storefront account, placed and paid, then (when `delivered`) shipped and delivered: its changes in
 * order.
 */
export function placeAccountOrder(
  book: OrderBook,
  customer: StorefrontCustomer,
  productIndexes: number[],
  opts: { delivered?: boolean; at?: Date } = {},
): OrderChange[] {
  const placed = book.place({
    customer: storefrontBuyer(customer),
    lines: productIndexes.map((productIndex) => ({ productIndex })),
    at: opts.at,
  });
  if (!opts.delivered) return [placed];
  const shipped = book.fulfil(placed.order.id);
  return [placed, shipped, book.deliver(placed.order.id, { fulfillmentId: shipped.fulfillment.id })];
}

export interface AccountOrder {
  id: string;
  name: string;
  fate: "delivered" | "paid";
  products: number;
}

/**
 * Orders of one storefront account ("log in as" on the local storefront), so its "rate your
 * order" has something to show: two delivered (one of two products) and one paid, each change sent
 * as Shopify's webhooks through `deliver`.
 */
export async function runAccountOrders(o: {
  book: OrderBook;
  customer: StorefrontCustomer;
  deliver: StoryDeliver;
  retries?: number;
}): Promise<{ orders: AccountOrder[]; notAcknowledged: number }> {
  if (o.book.productCount < 3) throw new Error("account orders: the book needs at least 3 products");
  const day = 86_400_000;
  const plans: { lines: number[]; fate: AccountOrder["fate"]; daysAgo: number }[] = [
    { lines: [0, 1], fate: "delivered", daysAgo: 12 },
    { lines: [2], fate: "delivered", daysAgo: 6 },
    { lines: [1], fate: "paid", daysAgo: 1 },
  ];
  let notAcknowledged = 0;
  const send = async (w: OrderWebhook) => {
    for (let attempt = 0; attempt <= (o.retries ?? 3); attempt++)
      if ((await o.deliver(w.topic, w.payload)) === 200) return;
    notAcknowledged++;
  };
  const orders: AccountOrder[] = [];
  for (const plan of plans) {
    const changes = placeAccountOrder(o.book, o.customer, plan.lines, {
      delivered: plan.fate === "delivered",
      at: new Date(Date.now() - plan.daysAgo * day),
    });
    for (const w of changes.flatMap((c) => c.webhooks)) await send(w);
    const { order } = changes[0]!;
    orders.push({ id: String(order.id), name: `#${order.number}`, fate: plan.fate, products: plan.lines.length });
  }
  return { orders, notAcknowledged };
}
