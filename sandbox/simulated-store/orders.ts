import { generateProduct, PRODUCT_ID_BASE, type ShopifyProductNode } from "./product-generator";
import { Rng, mixSeed } from "./random";
import type { BulkGroupOut, GraphqlError, OperationHandler, StoreModule } from "./router";
import {
  LINE_ITEMS_PER_QUERY,
  PAGED_LINE_ITEMS,
  HISTORY_LINES_PER_ORDER,
  ORDER_LINES_PER_QUERY,
} from "../../app/.server/shopify";
import {
  consentWebhook,
  phoneConsent,
  type SimChannel,
  type SimConsentState,
  type SimCustomerConsent,
} from "./consent";

// The store's orders: `count` generated ones (order i of seed s depends on (s, i) and the book's
// reference time only), spread over the last `spanDays` days, with line items pointing at the
// store's generated products; plus orders placed later. Every state an order can be in for the
// sync is there: paid or not, unfulfilled, partially fulfilled, in transit, delivered, split in two
// shipments, cancelled and refunded, test orders, gift-card-only orders, POS sales, draft orders.
//
// One model, two renderings: the GraphQL node of a bulk result (`orders` bulk root, grouped JSONL:
// the order line, then its LineItem lines) and the REST payload of orders/* webhooks. Changing an
// order (place, pay, fulfil, deliver, cancel, update) returns the webhooks Shopify would send, so a
// test or the demo can fire them through the app.
//
//   const orders = new OrderBook({ seed: 7, count: 40, productCount: 20 });
//   const store = await startSimulatedStore({ products: 20, seed: 7, modules: [ordersModule(orders)] });
//   const { webhooks } = orders.pay(orders.all()[3].id);

export type FinancialStatus = "PENDING" | "AUTHORIZED" | "PAID" | "PARTIALLY_REFUNDED" | "REFUNDED" | "VOIDED";
/** FulfillmentDisplayStatus values the store uses. */
export type ShipmentDisplay = "FULFILLED" | "IN_TRANSIT" | "OUT_FOR_DELIVERY" | "DELIVERED";
export type ConsentState = "SUBSCRIBED" | "NOT_SUBSCRIBED" | "UNSUBSCRIBED" | "PENDING";

export interface SimAddress {
  firstName: string;
  lastName: string;
  address1: string;
  city: string;
  zip: string;
  country: string;
  countryCode: string;
  phone: string | null;
}

export interface SimCustomer {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  phone: string | null;
  emailConsent: ConsentState;
  smsConsent: ConsentState | null;
  whatsappConsent: ConsentState | null;
  address: SimAddress;
}

export interface SimLine {
  id: number;
  productId: string | null;
  variantId: string | null;
  sku: string | null;
  title: string;
  variantTitle: string | null;
  vendor: string | null;
  price: string;
  quantity: number;
  /** Units removed by an edit or refunded. */
  removed: number;
  /** Units in active fulfillments. */
  fulfilled: number;
  giftCard: boolean;
  requiresShipping: boolean;
  properties: { key: string; value: string }[];
}

export interface SimFulfillment {
  id: number;
  status: "SUCCESS" | "CANCELLED";
  display: ShipmentDisplay;
  createdAt: string;
  updatedAt: string;
  inTransitAt: string | null;
  deliveredAt: string | null;
  estimatedDeliveryAt: string | null;
  trackingCompany: string | null;
  trackingNumber: string | null;
  lines: { lineId: number; quantity: number }[];
}

export interface SimRefund {
  id: number;
  createdAt: string;
  lines: { lineId: number; quantity: number }[];
}

export interface SimOrder {
  id: number;
  number: number;
  createdAt: string;
  updatedAt: string;
  processedAt: string;
  cancelledAt: string | null;
  cancelReason: string | null;
  closedAt: string | null;
  test: boolean;
  sourceName: "web" | "pos" | "shopify_draft_order";
  email: string | null;
  phone: string | null;
  buyerAcceptsMarketing: boolean;
  financialStatus: FinancialStatus;
  customer: SimCustomer | null;
  shippingAddress: SimAddress | null;
  billingAddress: SimAddress | null;
  shippingLine: {
    code: string;
    title: string;
    source: string;
    carrierIdentifier: string | null;
    deliveryCategory: string | null;
  } | null;
  lines: SimLine[];
  fulfillments: SimFulfillment[];
  refunds: SimRefund[];
}

export interface OrderWebhook {
  topic: string;
  payload: Record<string, unknown>;
}

export interface OrderChange {
  order: SimOrder;
  /** What Shopify delivers for the change, in the order it sends them. */
  webhooks: OrderWebhook[];
}

export const ORDER_ID_BASE = 5_900_000_000_000;
const LINE_ID_BASE = 14_700_000_000_000;
const FULFILLMENT_ID_BASE = 5_100_000_000_000;
const REFUND_ID_BASE = 1_010_000_000_000;
export const CUSTOMER_ID_BASE = 7_400_000_000_000;
/** When the generated customers' consent was last set (their account's creation). */
const CONSENT_BASE_TIME = "2024-06-21T10:00:00Z";
const EVENT_ID_BASE = 27_000_000_000_000;
const GIFT_CARD_PRODUCT = "gid://shopify/Product/8099999999001";
const GIFT_CARD_VARIANT = "gid://shopify/ProductVariant/46099999999001";
const DAY_MS = 86_400_000;
const MAX_LINES = 16;

const FIRST = ["Avery", "Jordan", "Lena", "Sam", "Lucía", "Camille", "Riley", "Noah", "Mia", "Kenji", "Zoë", "Olu"];
const LAST = [
  "Johnson",
  "Lee",
  "Müller",
  "Patel",
  "García",
  "Durand",
  "Chen",
  "Novak",
  "Rossi",
  "Tanaka",
  "Okafor",
  "Smith",
];
const PLACES: Omit<SimAddress, "firstName" | "lastName" | "phone">[] = [
  { address1: "350 Fifth Avenue", city: "New York", zip: "10118", country: "United States", countryCode: "US" },
  { address1: "Unter den Linden 5", city: "Berlin", zip: "10117", country: "Germany", countryCode: "DE" },
  { address1: "12 rue de Rivoli", city: "Paris", zip: "75004", country: "France", countryCode: "FR" },
  { address1: "100 Queen St W", city: "Toronto", zip: "M5H 2N2", country: "Canada", countryCode: "CA" },
  { address1: "10 Downing St", city: "London", zip: "SW1A 2AA", country: "United Kingdom", countryCode: "GB" },
];
const PHONES: Record<string, (r: Rng) => string> = {
  US: (r) => `+1 212-555-01${r.digits(2)}`,
  DE: (r) => `0151 2345${r.digits(4)}`,
  FR: (r) => `06 12 34 ${r.digits(2)} ${r.digits(2)}`,
  CA: (r) => `416-555-01${r.digits(2)}`,
  GB: (r) => `07700 900${r.digits(3)}`,
};
const CARRIERS = [
  { company: "UPS", prefix: "1Z999AA1" },
  { company: "DHL", prefix: "JJD0099" },
  { company: "USPS", prefix: "94001112025558" },
];

/** GraphQL DateTime: UTC, seconds. */
function gqlTime(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** REST timestamps carry the shop's offset; the store's shop runs on UTC (as in webhooks.ts). */
function restTime(iso: string | null): string | null {
  return iso === null ? null : iso.replace(/(\.\d+)?Z$/, "+00:00");
}

const legacy = (gid: string) => Number(gid.slice(gid.lastIndexOf("/") + 1));
const current = (l: SimLine) => l.quantity - l.removed;
const unfulfilled = (l: SimLine) => Math.max(0, current(l) - l.fulfilled);

function customerOf(seed: number, index: number): SimCustomer {
  const r = new Rng(mixSeed(seed, 0xc057, index));
  const firstName = r.pick(FIRST);
  const lastName = r.pick(LAST);
  const place = r.pick(PLACES);
  const phone = r.chance(0.5) ? PHONES[place.countryCode]!(r) : null;
  const slug = `${firstName}.${lastName}`
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase();
  return {
    id: CUSTOMER_ID_BASE + index,
    firstName,
    lastName,
    email: `${slug}.${index}@example.com`,
    phone,
    emailConsent: r.pick(["SUBSCRIBED", "NOT_SUBSCRIBED", "NOT_SUBSCRIBED", "UNSUBSCRIBED"] as const),
    smsConsent: phone ? r.pick(["SUBSCRIBED", "NOT_SUBSCRIBED"] as const) : null,
    address: { ...place, firstName, lastName, phone },
    // Drawn last, so that the buyers of books made before WhatsApp consent existed stay the same.
    whatsappConsent: phone ? r.pick(["SUBSCRIBED", "NOT_SUBSCRIBED", "NOT_SUBSCRIBED"] as const) : null,
  };
}

function productLine(id: number, product: ShopifyProductNode, variantPick: number, quantity: number): SimLine {
  const variant = product.variants[variantPick % product.variants.length]!;
  return {
    id,
    productId: product.id,
    variantId: variant.id,
    sku: variant.sku || null,
    title: product.title,
    variantTitle: variant.title === "Default Title" ? null : variant.title,
    vendor: product.vendor || null,
    price: variant.price,
    quantity,
    removed: 0,
    fulfilled: 0,
    giftCard: false,
    requiresShipping: true,
    properties: [],
  };
}

function giftCardLine(id: number): SimLine {
  return {
    id,
    productId: GIFT_CARD_PRODUCT,
    variantId: GIFT_CARD_VARIANT,
    sku: null,
    title: "Gift Card",
    variantTitle: "$50",
    vendor: "Acme",
    price: "50.00",
    quantity: 1,
    removed: 0,
    fulfilled: 0,
    giftCard: true,
    requiresShipping: false,
    properties: [],
  };
}

export interface OrderBookOptions {
  seed?: number;
  /** Generated orders. */
  count?: number;
  /** The store's generated products the lines point at (products 0..productCount-1 of `seed`). */
  productCount?: number;
  /** Generated orders are created over the `spanDays` days before `now`. Default 75. */
  spanDays?: number;
  /** The reference time of generated orders. Default: when the book is made. */
  now?: Date;
}

/** The store's orders. Generated ones are made on demand and kept once changed. */
export class OrderBook {
  readonly seed: number;
  readonly count: number;
  readonly productCount: number;
  readonly spanDays: number;
  readonly now: Date;
  private readonly changed = new Map<number, SimOrder>();
  private readonly placed: SimOrder[] = [];
  private nextIndex: number;
  private nextFulfillment = 0;
  private nextEvent = 0;
  private readonly consents = new Map<number, SimCustomerConsent>();
  /** Customers given by name (the storefront's "log in as" accounts), beside the generated ones. */
  private readonly named = new Map<number, SimCustomer>();

  constructor(options: OrderBookOptions = {}) {
    this.seed = options.seed ?? 1;
    this.count = options.count ?? 0;
    this.productCount = options.productCount ?? 0;
    this.spanDays = options.spanDays ?? 75;
    this.now = options.now ?? new Date();
    this.nextIndex = this.count;
  }

  private product(index: number): ShopifyProductNode | null {
    return this.productCount > 0 ? generateProduct(index % this.productCount, this.seed) : null;
  }

  /** Generated order `index` as it was made (before any change). */
  generate(index: number): SimOrder {
    const r = new Rng(mixSeed(this.seed, 0x0bd, index));
    // Evenly spread, oldest first (the bulk query sorts by creation), never within an hour of the
    // day boundaries a backfill window is cut at, so that who is in a window does not depend on
    // the milliseconds between making the book and running the sync.
    let age = (this.spanDays * (this.count - index)) / Math.max(1, this.count) - r.float() * 0.5;
    if (Math.abs(age - Math.round(age)) < 0.05) age += 0.1;
    age = Math.max(0.1, age);
    const created = this.now.getTime() - age * DAY_MS;
    const at = (share: number) => gqlTime(created + age * DAY_MS * share);
    const id = ORDER_ID_BASE + index;

    const sourceRoll = r.float();
    const sourceName = sourceRoll < 0.8 ? "web" : sourceRoll < 0.9 ? "pos" : "shopify_draft_order";
    const customer = r.chance(sourceName === "pos" ? 0.6 : 0.12)
      ? null
      : customerOf(this.seed, r.int(0, Math.max(1, Math.floor(this.count / 2)) - 1));
    const test = r.chance(0.08);
    const giftCardOnly = sourceName === "web" && r.chance(0.05);

    const lines: SimLine[] = [];
    if (giftCardOnly) lines.push(giftCardLine(LINE_ID_BASE + index * MAX_LINES));
    else {
      const n = r.int(1, 3);
      for (let k = 0; k < n; k++) {
        const product = this.product(r.int(0, Math.max(0, this.productCount - 1)));
        const lineId = LINE_ID_BASE + index * MAX_LINES + k;
        lines.push(
          product
            ? productLine(lineId, product, r.int(0, 7), r.int(1, 2))
            : {
                ...giftCardLine(lineId),
                productId: null,
                variantId: null,
                giftCard: false,
                requiresShipping: true,
                title: "Custom item",
                variantTitle: null,
              },
        );
      }
    }

    const address =
      customer?.address ??
      (sourceName === "pos"
        ? null
        : { ...r.pick(PLACES), firstName: r.pick(FIRST), lastName: r.pick(LAST), phone: null });
    const order: SimOrder = {
      id,
      number: 1001 + index,
      createdAt: at(0),
      updatedAt: at(0),
      processedAt: at(0),
      cancelledAt: null,
      cancelReason: null,
      closedAt: null,
      test,
      sourceName,
      email: customer?.email ?? (sourceName === "pos" ? null : `guest.${index}@example.net`),
      phone: null,
      buyerAcceptsMarketing: r.chance(0.3),
      financialStatus: "PAID",
      customer,
      shippingAddress: address,
      billingAddress: address,
      shippingLine:
        sourceName === "pos" || giftCardOnly
          ? null
          : r.chance(0.1)
            ? {
                code: "Pickup",
                title: "Pickup at Harbor St store",
                source: "shopify",
                carrierIdentifier: null,
                deliveryCategory: "pick-up",
              }
            : {
                code: "Standard",
                title: "Standard Shipping",
                source: "shopify",
                carrierIdentifier: null,
                deliveryCategory: null,
              },
      lines,
      fulfillments: [],
      refunds: [],
    };

    const payRoll = r.float();
    if (sourceName === "shopify_draft_order" && payRoll < 0.5) order.financialStatus = "PENDING";
    else if (payRoll < 0.08) order.financialStatus = "PENDING";
    else if (payRoll < 0.13) order.financialStatus = "AUTHORIZED";

    const live = lines.filter((l) => !l.giftCard);
    const roll = r.float();
    if (giftCardOnly) {
      this.addFulfillment(order, lines, "FULFILLED", at(0.01), r);
    } else if (sourceName === "pos") {
      // Sold over the counter: fulfilled at once, nothing shipped.
      this.addFulfillment(order, lines, "FULFILLED", at(0.001), r);
      order.closedAt = at(0.002);
    } else if (roll < 0.06) {
      const paid = order.financialStatus === "PAID";
      order.cancelledAt = at(0.2);
      order.cancelReason = r.pick(["customer", "inventory", "declined"]);
      order.financialStatus = paid ? "REFUNDED" : "VOIDED";
      if (paid) {
        for (const l of lines) l.removed = l.quantity;
        order.refunds.push({
          id: REFUND_ID_BASE + index * 4,
          createdAt: order.cancelledAt,
          lines: lines.map((l) => ({ lineId: l.id, quantity: l.quantity })),
        });
      }
    } else if (order.financialStatus === "PAID") {
      if (roll < 0.4) {
        // Unfulfilled.
      } else if (roll < 0.55 && live.length > 1) {
        this.addFulfillment(order, live.slice(0, 1), "IN_TRANSIT", at(0.3), r);
      } else if (roll < 0.75) {
        this.addFulfillment(order, live, r.chance(0.5) ? "IN_TRANSIT" : "FULFILLED", at(0.3), r);
      } else if (roll < 0.93 || live.length < 2) {
        const f = this.addFulfillment(order, live, "IN_TRANSIT", at(0.3), r);
        this.markDelivered(f, at(0.6));
      } else {
        const first = this.addFulfillment(order, live.slice(0, 1), "IN_TRANSIT", at(0.2), r);
        this.markDelivered(first, at(0.5));
        this.addFulfillment(order, live.slice(1), "IN_TRANSIT", at(0.7), r);
      }
    }
    order.updatedAt = [order.createdAt, order.cancelledAt, ...order.fulfillments.map((f) => f.updatedAt)]
      .filter((t): t is string => t !== null)
      .sort()
      .pop()!;
    return order;
  }

  private addFulfillment(
    order: SimOrder,
    lines: SimLine[],
    display: ShipmentDisplay,
    at: string,
    r?: Rng,
  ): SimFulfillment {
    const carrier = display === "FULFILLED" && order.sourceName === "pos" ? null : (r?.pick(CARRIERS) ?? CARRIERS[0]!);
    const n = order.fulfillments.length;
    const f: SimFulfillment = {
      id:
        order.fulfillments.length < 4 && order.id < ORDER_ID_BASE + this.count
          ? FULFILLMENT_ID_BASE + (order.id - ORDER_ID_BASE) * 8 + n
          : FULFILLMENT_ID_BASE + 900_000_000 + this.nextFulfillment++,
      status: "SUCCESS",
      display,
      createdAt: at,
      updatedAt: at,
      inTransitAt: display === "IN_TRANSIT" ? at : null,
      deliveredAt: null,
      estimatedDeliveryAt: display === "IN_TRANSIT" ? gqlTime(Date.parse(at) + 3 * DAY_MS) : null,
      trackingCompany: carrier?.company ?? null,
      trackingNumber: carrier ? `${carrier.prefix}${String(order.id).slice(-8)}${n}` : null,
      lines: lines.filter((l) => unfulfilled(l) > 0).map((l) => ({ lineId: l.id, quantity: unfulfilled(l) })),
    };
    for (const fl of f.lines) order.lines.find((l) => l.id === fl.lineId)!.fulfilled += fl.quantity;
    order.fulfillments.push(f);
    return f;
  }

  private markDelivered(f: SimFulfillment, at: string): void {
    f.display = "DELIVERED";
    f.deliveredAt = at;
    f.updatedAt = at;
  }

  /** A customer's consent as Shopify has it now (generated, then changed by changeConsent). */
  customerConsent(customerId: number): SimCustomerConsent | null {
    const changed = this.consents.get(customerId);
    if (changed) return structuredClone(changed);
    const index = customerId - CUSTOMER_ID_BASE;
    const named = this.named.get(customerId);
    if (!named && (!Number.isInteger(index) || index < 0 || index > 1_000_000)) return null;
    const c = named ?? customerOf(this.seed, index);
    const at = (state: ConsentState) => ({ state, updatedAt: state === "NOT_SUBSCRIBED" ? null : CONSENT_BASE_TIME });
    return {
      customerId,
      email: c.email,
      phone: c.phone,
      channels: {
        email: at(c.emailConsent),
        sms: c.smsConsent ? at(c.smsConsent) : null,
        whatsapp: c.whatsappConsent ? at(c.whatsappConsent) : null,
      },
    };
  }

  /** The buyer changes one channel's consent: the webhook Shopify sends for it. */
  changeConsent(customerId: number, channel: SimChannel, state: SimConsentState, at = new Date()): OrderWebhook {
    const c = this.customerConsent(customerId);
    if (!c) throw new Error(`simulated store: no customer ${customerId}`);
    if (!c.channels[channel] && channel !== "email")
      throw new Error(`simulated store: customer ${customerId} has no phone for ${channel}`);
    c.channels[channel] = { state, updatedAt: gqlTime(at.getTime()) };
    this.consents.set(customerId, c);
    return consentWebhook(c, channel);
  }

  /** The order as it is now, or null. */
  get(id: number | string): SimOrder | null {
    const n = typeof id === "number" ? id : legacy(String(id));
    const changed = this.changed.get(n);
    if (changed) return changed;
    const index = n - ORDER_ID_BASE;
    if (Number.isInteger(index) && index >= 0 && index < this.count) return this.generate(index);
    return this.placed.find((o) => o.id === n) ?? null;
  }

  /** Every order, oldest first (materialises them: for small books). */
  all(): SimOrder[] {
    return [...this.iterate()];
  }

  *iterate(): Generator<SimOrder> {
    for (let i = 0; i < this.count; i++) yield this.changed.get(ORDER_ID_BASE + i) ?? this.generate(i);
    for (const o of [...this.placed].sort((a, b) => a.createdAt.localeCompare(b.createdAt)))
      yield this.changed.get(o.id) ?? o;
  }

  private edit(id: number, fn: (o: SimOrder) => void, at: Date): SimOrder {
    const order = this.get(id);
    if (!order) throw new Error(`simulated store: no order ${id}`);
    const next = structuredClone(order);
    fn(next);
    next.updatedAt = gqlTime(Math.max(at.getTime(), Date.parse(order.updatedAt) + 1000));
    if (this.placed.some((o) => o.id === id)) this.placed[this.placed.findIndex((o) => o.id === id)] = next;
    else this.changed.set(id, next);
    return next;
  }

  /** A new order at `at`: lines of the store's products (by index), paid unless said otherwise. */
  place(
    spec: {
      lines?: { productIndex: number; variantIndex?: number; quantity?: number }[];
      customerIndex?: number | null;
      /** A customer of one's own (a storefront account) instead of a generated one. */
      customer?: SimCustomer;
      financialStatus?: FinancialStatus;
      test?: boolean;
      at?: Date;
    } = {},
  ): OrderChange {
    const at = spec.at ?? new Date();
    const index = this.nextIndex++;
    const id = ORDER_ID_BASE + index;
    if (spec.customer) this.named.set(spec.customer.id, structuredClone(spec.customer));
    const customer = spec.customer
      ? structuredClone(spec.customer)
      : spec.customerIndex === null
        ? null
        : customerOf(this.seed, spec.customerIndex ?? index);
    const lines = (spec.lines ?? [{ productIndex: index }]).map((l, k) => {
      const product = this.product(l.productIndex);
      if (!product) throw new Error("simulated store: placing an order needs products (productCount > 0)");
      return productLine(LINE_ID_BASE + index * MAX_LINES + k, product, l.variantIndex ?? 0, l.quantity ?? 1);
    });
    const time = gqlTime(at.getTime());
    const order: SimOrder = {
      id,
      number: 1001 + index,
      createdAt: time,
      updatedAt: time,
      processedAt: time,
      cancelledAt: null,
      cancelReason: null,
      closedAt: null,
      test: spec.test ?? false,
      sourceName: "web",
      email: customer?.email ?? `guest.${index}@example.net`,
      phone: null,
      buyerAcceptsMarketing: false,
      financialStatus: spec.financialStatus ?? "PAID",
      customer,
      shippingAddress: customer?.address ?? { ...PLACES[0]!, firstName: "Guest", lastName: "Buyer", phone: null },
      billingAddress: customer?.address ?? { ...PLACES[0]!, firstName: "Guest", lastName: "Buyer", phone: null },
      shippingLine: {
        code: "Standard",
        title: "Standard Shipping",
        source: "shopify",
        carrierIdentifier: null,
        deliveryCategory: null,
      },
      lines,
      fulfillments: [],
      refunds: [],
    };
    this.placed.push(order);
    const webhooks = [{ topic: "orders/create", payload: orderWebhookPayload(order) }];
    if (order.financialStatus === "PAID") webhooks.push({ topic: "orders/paid", payload: orderWebhookPayload(order) });
    return { order, webhooks };
  }

  /** Payment captured. */
  pay(id: number, at = new Date()): OrderChange {
    const order = this.edit(id, (o) => (o.financialStatus = "PAID"), at);
    const payload = orderWebhookPayload(order);
    return {
      order,
      webhooks: [
        { topic: "orders/paid", payload },
        { topic: "orders/updated", payload },
      ],
    };
  }

  /** A shipment of the given lines (default: everything left), in transit unless said otherwise. */
  fulfil(
    id: number,
    options: { lineIds?: number[]; display?: ShipmentDisplay; at?: Date } = {},
  ): OrderChange & { fulfillment: SimFulfillment } {
    const at = options.at ?? new Date();
    let fulfillment: SimFulfillment | undefined;
    const order = this.edit(
      id,
      (o) => {
        const lines = o.lines.filter((l) => !l.giftCard && (!options.lineIds || options.lineIds.includes(l.id)));
        fulfillment = this.addFulfillment(o, lines, options.display ?? "IN_TRANSIT", gqlTime(at.getTime()));
        if (fulfillment.lines.length === 0) throw new Error(`simulated store: order ${id} has nothing left to fulfil`);
      },
      at,
    );
    const payload = orderWebhookPayload(order);
    const topic = order.lines.some((l) => !l.giftCard && unfulfilled(l) > 0)
      ? "orders/partially_fulfilled"
      : "orders/fulfilled";
    return {
      order,
      fulfillment: fulfillment!,
      webhooks: [
        { topic: "fulfillments/create", payload: fulfillmentWebhookPayload(order, fulfillment!) },
        { topic, payload },
        { topic: "orders/updated", payload },
      ],
    };
  }

  /** The carrier reports a shipment delivered (the latest one when none is named). */
  deliver(id: number, options: { fulfillmentId?: number; at?: Date } = {}): OrderChange {
    const at = options.at ?? new Date();
    let target: SimFulfillment | undefined;
    const order = this.edit(
      id,
      (o) => {
        target = options.fulfillmentId
          ? o.fulfillments.find((f) => f.id === options.fulfillmentId)
          : o.fulfillments[o.fulfillments.length - 1];
        if (!target) throw new Error(`simulated store: order ${id} has no such fulfillment`);
        this.markDelivered(target, gqlTime(at.getTime()));
      },
      at,
    );
    const event = {
      id: EVENT_ID_BASE + this.nextEvent++,
      fulfillment_id: target!.id,
      order_id: order.id,
      status: "delivered",
      message: null,
      happened_at: restTime(target!.deliveredAt),
      created_at: restTime(target!.deliveredAt),
      updated_at: restTime(target!.deliveredAt),
      estimated_delivery_at: null,
      city: null,
      province: null,
      country: null,
      zip: null,
      address1: null,
      latitude: null,
      longitude: null,
      shop_id: 63712485438,
      admin_graphql_api_id: `gid://shopify/FulfillmentEvent/${EVENT_ID_BASE + this.nextEvent - 1}`,
    };
    return {
      order,
      webhooks: [
        { topic: "fulfillment_events/create", payload: event },
        { topic: "fulfillments/update", payload: fulfillmentWebhookPayload(order, target!) },
        { topic: "orders/updated", payload: orderWebhookPayload(order) },
      ],
    };
  }

  /** Cancelled by the merchant: refunded when it was paid (every unshipped unit), voided otherwise. */
  cancel(id: number, options: { reason?: string; at?: Date } = {}): OrderChange {
    const at = options.at ?? new Date();
    const order = this.edit(
      id,
      (o) => {
        const time = gqlTime(at.getTime());
        o.cancelledAt = time;
        o.cancelReason = options.reason ?? "customer";
        if (o.financialStatus === "PAID" || o.financialStatus === "PARTIALLY_REFUNDED") {
          const lines = o.lines
            .filter((l) => unfulfilled(l) > 0)
            .map((l) => ({ lineId: l.id, quantity: unfulfilled(l) }));
          for (const rl of lines) o.lines.find((l) => l.id === rl.lineId)!.removed += rl.quantity;
          o.refunds.push({
            id: REFUND_ID_BASE + (o.id - ORDER_ID_BASE) * 4 + o.refunds.length,
            createdAt: time,
            lines,
          });
          o.financialStatus = "REFUNDED";
        } else {
          o.financialStatus = "VOIDED";
        }
      },
      at,
    );
    const payload = orderWebhookPayload(order);
    return {
      order,
      webhooks: [
        { topic: "orders/cancelled", payload },
        { topic: "orders/updated", payload },
      ],
    };
  }

  /** Any other edit (contact details, a line's properties, a tag the service never sees). */
  update(id: number, change: (o: SimOrder) => void, at = new Date()): OrderChange {
    const order = this.edit(id, change, at);
    return { order, webhooks: [{ topic: "orders/updated", payload: orderWebhookPayload(order) }] };
  }
}

// ---------------------------------------------------------------------------------------------
// Renderings

function displayFulfillmentStatus(o: SimOrder): string {
  const live = o.lines.filter((l) => current(l) > 0);
  if (live.length === 0) return o.fulfillments.length ? "FULFILLED" : "UNFULFILLED";
  if (live.every((l) => unfulfilled(l) === 0)) return "FULFILLED";
  return live.some((l) => l.fulfilled > 0) ? "PARTIALLY_FULFILLED" : "UNFULFILLED";
}

function lineFulfillmentStatus(l: SimLine): string | null {
  const done = Math.max(0, current(l) - unfulfilled(l));
  if (!done) return null;
  return unfulfilled(l) === 0 ? "fulfilled" : "partial";
}

const gqlAddress = (a: SimAddress | null) =>
  a
    ? {
        firstName: a.firstName,
        lastName: a.lastName,
        name: `${a.firstName} ${a.lastName}`,
        phone: a.phone,
        countryCodeV2: a.countryCode,
      }
    : null;

/** The order as one group of a bulk result of bulkOrdersQuery (order line, then LineItem lines). */
export function orderBulkGroup(o: SimOrder, consent?: SimCustomerConsent | null): BulkGroupOut {
  const gid = `gid://shopify/Order/${o.id}`;
  const c = o.customer;
  const ch = consent?.channels;
  const email = ch ? ch.email : c ? { state: c.emailConsent, updatedAt: null } : null;
  const sms = ch ? ch.sms : c?.smsConsent ? { state: c.smsConsent, updatedAt: null } : null;
  const whatsapp = ch ? ch.whatsapp : c?.whatsappConsent ? { state: c.whatsappConsent, updatedAt: null } : null;
  return {
    parent: {
      id: gid,
      name: `#${o.number}`,
      createdAt: o.createdAt,
      updatedAt: o.updatedAt,
      processedAt: o.processedAt,
      cancelledAt: o.cancelledAt,
      closedAt: o.closedAt,
      test: o.test,
      sourceName: o.sourceName,
      email: o.email,
      phone: o.phone,
      customerAcceptsMarketing: o.buyerAcceptsMarketing,
      displayFinancialStatus: o.financialStatus,
      displayFulfillmentStatus: displayFulfillmentStatus(o),
      customer: c
        ? {
            id: `gid://shopify/Customer/${c.id}`,
            firstName: c.firstName,
            lastName: c.lastName,
            defaultEmailAddress: c.email
              ? {
                  emailAddress: c.email,
                  marketingState: email?.state ?? "NOT_SUBSCRIBED",
                  marketingUpdatedAt: email?.updatedAt ?? null,
                }
              : null,
            defaultPhoneNumber: c.phone ? { phoneNumber: c.phone, ...phoneConsent(sms, whatsapp) } : null,
            defaultAddress: { countryCodeV2: c.address.countryCode },
          }
        : null,
      shippingAddress: gqlAddress(o.shippingAddress),
      billingAddress: gqlAddress(o.billingAddress),
      shippingLine: o.shippingLine,
      fulfillments: o.fulfillments.map((f) => ({
        id: `gid://shopify/Fulfillment/${f.id}`,
        status: f.status,
        displayStatus: f.display,
        createdAt: f.createdAt,
        updatedAt: f.updatedAt,
        inTransitAt: f.inTransitAt,
        deliveredAt: f.deliveredAt,
        estimatedDeliveryAt: f.estimatedDeliveryAt,
        trackingInfo: f.trackingNumber ? [{ company: f.trackingCompany, number: f.trackingNumber, url: null }] : [],
      })),
    },
    children: o.lines.map((l) => ({
      id: `gid://shopify/LineItem/${l.id}`,
      sku: l.sku,
      name: l.variantTitle ? `${l.title} - ${l.variantTitle}` : l.title,
      title: l.title,
      variantTitle: l.variantTitle,
      vendor: l.vendor,
      quantity: l.quantity,
      currentQuantity: current(l),
      unfulfilledQuantity: unfulfilled(l),
      isGiftCard: l.giftCard,
      requiresShipping: l.requiresShipping,
      customAttributes: l.properties,
      product: l.productId ? { id: l.productId } : null,
      variant: l.variantId ? { id: l.variantId, sku: l.sku, barcode: null } : null,
      __parentId: gid,
    })),
  };
}

const money = (amount: string) => ({
  shop_money: { amount, currency_code: "USD" },
  presentment_money: { amount, currency_code: "USD" },
});

function restAddress(a: SimAddress | null) {
  if (!a) return null;
  return {
    first_name: a.firstName,
    address1: a.address1,
    phone: a.phone,
    city: a.city,
    zip: a.zip,
    province: null,
    country: a.country,
    last_name: a.lastName,
    address2: null,
    company: null,
    latitude: null,
    longitude: null,
    name: `${a.firstName} ${a.lastName}`,
    country_code: a.countryCode,
    province_code: null,
  };
}

function restLine(l: SimLine) {
  return {
    id: l.id,
    admin_graphql_api_id: `gid://shopify/LineItem/${l.id}`,
    current_quantity: current(l),
    fulfillable_quantity: unfulfilled(l),
    fulfillment_service: "manual",
    fulfillment_status: lineFulfillmentStatus(l),
    gift_card: l.giftCard,
    grams: 450,
    name: l.variantTitle ? `${l.title} - ${l.variantTitle}` : l.title,
    price: l.price,
    price_set: money(l.price),
    product_exists: l.productId !== null,
    product_id: l.productId ? legacy(l.productId) : null,
    properties: l.properties.map((p) => ({ name: p.key, value: p.value })),
    quantity: l.quantity,
    requires_shipping: l.requiresShipping,
    sku: l.sku ?? "",
    taxable: true,
    title: l.title,
    total_discount: "0.00",
    variant_id: l.variantId ? legacy(l.variantId) : null,
    variant_inventory_management: "shopify",
    variant_title: l.variantTitle ?? "",
    vendor: l.vendor,
    tax_lines: [],
    duties: [],
    discount_allocations: [],
  };
}

function restFulfillment(o: SimOrder, f: SimFulfillment) {
  const shipment = f.display === "FULFILLED" ? null : f.display.toLowerCase();
  return {
    id: f.id,
    admin_graphql_api_id: `gid://shopify/Fulfillment/${f.id}`,
    created_at: restTime(f.createdAt),
    location_id: 71234567890,
    name: `#${o.number}.${o.fulfillments.indexOf(f) + 1}`,
    order_id: o.id,
    origin_address: {},
    receipt: {},
    service: "manual",
    shipment_status: shipment,
    status: f.status.toLowerCase(),
    tracking_company: f.trackingCompany,
    tracking_number: f.trackingNumber,
    tracking_numbers: f.trackingNumber ? [f.trackingNumber] : [],
    tracking_url: null,
    tracking_urls: [],
    updated_at: restTime(f.updatedAt),
    estimated_delivery_at: restTime(f.estimatedDeliveryAt),
    line_items: f.lines.map((fl) => {
      const line = o.lines.find((l) => l.id === fl.lineId)!;
      return { ...restLine(line), quantity: fl.quantity };
    }),
  };
}

/** The order as orders/* webhooks deliver it (REST shape, API 2025-01+: no consent on the customer). */
export function orderWebhookPayload(o: SimOrder): Record<string, unknown> {
  const total = o.lines.reduce((sum, l) => sum + Number(l.price) * current(l), 0).toFixed(2);
  const c = o.customer;
  return {
    id: o.id,
    admin_graphql_api_id: `gid://shopify/Order/${o.id}`,
    app_id: o.sourceName === "pos" ? 129785 : 580111,
    buyer_accepts_marketing: o.buyerAcceptsMarketing,
    cancel_reason: o.cancelReason,
    cancelled_at: restTime(o.cancelledAt),
    closed_at: restTime(o.closedAt),
    confirmation_number: `SIM${String(o.id).slice(-6)}`,
    confirmed: true,
    contact_email: o.email,
    created_at: restTime(o.createdAt),
    currency: "USD",
    current_total_price: total,
    customer_locale: "en",
    email: o.email ?? "",
    financial_status: o.financialStatus.toLowerCase(),
    fulfillment_status: { FULFILLED: "fulfilled", PARTIALLY_FULFILLED: "partial" }[displayFulfillmentStatus(o)] ?? null,
    name: `#${o.number}`,
    number: o.number - 1000,
    order_number: o.number,
    phone: o.phone,
    presentment_currency: "USD",
    processed_at: restTime(o.processedAt),
    source_name: o.sourceName,
    subtotal_price: total,
    tags: "",
    test: o.test,
    total_price: total,
    total_price_set: money(total),
    updated_at: restTime(o.updatedAt),
    user_id: null,
    billing_address: restAddress(o.billingAddress),
    customer: c
      ? {
          id: c.id,
          email: c.email,
          created_at: "2024-06-21T10:00:00+00:00",
          updated_at: "2024-06-21T10:00:00+00:00",
          first_name: c.firstName,
          last_name: c.lastName,
          state: "enabled",
          note: null,
          verified_email: true,
          tax_exempt: false,
          phone: c.phone,
          currency: "USD",
          admin_graphql_api_id: `gid://shopify/Customer/${c.id}`,
          default_address: { ...restAddress(c.address), id: c.id + 10, customer_id: c.id, default: true },
        }
      : null,
    fulfillments: o.fulfillments.map((f) => restFulfillment(o, f)),
    line_items: o.lines.map(restLine),
    refunds: o.refunds.map((r) => ({
      id: r.id,
      admin_graphql_api_id: `gid://shopify/Refund/${r.id}`,
      created_at: restTime(r.createdAt),
      note: null,
      order_id: o.id,
      processed_at: restTime(r.createdAt),
      restock: true,
      refund_line_items: r.lines.map((rl, k) => ({
        id: r.id * 10 + k,
        line_item_id: rl.lineId,
        quantity: rl.quantity,
        restock_type: "cancel",
        line_item: restLine(o.lines.find((l) => l.id === rl.lineId)!),
      })),
      transactions: [],
    })),
    shipping_address: restAddress(o.shippingAddress),
    shipping_lines: o.shippingLine
      ? [
          {
            id: o.id + 100_000_000,
            carrier_identifier: o.shippingLine.carrierIdentifier,
            code: o.shippingLine.code,
            discounted_price: "0.00",
            is_removed: false,
            price: "0.00",
            price_set: money("0.00"),
            source: o.shippingLine.source,
            title: o.shippingLine.title,
            tax_lines: [],
            discount_allocations: [],
            delivery_category: o.shippingLine.deliveryCategory,
          },
        ]
      : [],
  };
}

/** fulfillments/create and fulfillments/update. */
export function fulfillmentWebhookPayload(o: SimOrder, f: SimFulfillment): Record<string, unknown> {
  const base = restFulfillment(o, f);
  // Shopify includes where it goes (buyer contact data); the connector must not keep it.
  return { ...base, email: o.email, destination: restAddress(o.shippingAddress) };
}

// ---------------------------------------------------------------------------------------------
// The module

/** `orders(query: "created_at:>='…'")` → that instant, or null when the query has no such filter. */
function createdSince(query: string): number | null {
  const m = /created_at:>=\s*\\?['"]?([0-9T:.+\-Z]+)/.exec(query);
  const t = m ? Date.parse(m[1]!) : NaN;
  return Number.isNaN(t) ? null : t;
}

const LINE_PAGE_MAX = LINE_ITEMS_PER_QUERY;
const offsetCursor = (n: number) => Buffer.from(String(n)).toString("base64url");
const cursorOffset = (c: unknown) =>
  typeof c === "string" && c ? Number(Buffer.from(c, "base64url").toString()) || 0 : 0;

/** An order as OrdersPage selects it: the bulk line's fields, its first `lines` line items as a connection. */
function pagedOrderNode(group: BulkGroupOut, lines: number) {
  const items = group.children.map(({ __parentId: _parent, ...line }) => line);
  const page = items.slice(0, lines);
  return {
    ...group.parent,
    lineItems: {
      nodes: page,
      pageInfo: { hasNextPage: items.length > lines, endCursor: page.length ? offsetCursor(page.length) : null },
    },
  };
}

/** The `orders` bulk root over a book, and the paged read that stands in for it. */
export function ordersModule(book: OrderBook): StoreModule {
  const matching = function* (query: string) {
    const since = createdSince(query);
    for (const o of book.iterate()) if (since === null || Date.parse(o.createdAt) >= since) yield o;
  };
  const groupOf = (o: SimOrder) => orderBulkGroup(o, o.customer ? book.customerConsent(o.customer.id) : null);
  return {
    name: "orders",
    operations: {
      ...customerOrderOperations(book),
      // The paged read (bulk operations refused): the bulk query's orders, oldest first.
      OrdersPage: {
        handle: (v) => {
          const first = Number(v.first);
          if (!Number.isInteger(first) || first < 1 || first > 250)
            return { errors: [{ message: "first: must be between 1 and 250", extensions: { code: "BAD_REQUEST" } }] };
          const all = Array.from(matching(typeof v.query === "string" ? v.query : "")).sort((a, b) =>
            a.createdAt === b.createdAt ? a.id - b.id : a.createdAt < b.createdAt ? -1 : 1,
          );
          const from = cursorOffset(v.after);
          const page = all.slice(from, from + first);
          const end = from + page.length;
          const nodes = page.map((o) => pagedOrderNode(groupOf(o), PAGED_LINE_ITEMS));
          const actual =
            2 +
            nodes.reduce(
              (n, o) =>
                n +
                12 +
                ((o as Record<string, unknown>).fulfillments as unknown[]).length * 2 +
                2 +
                o.lineItems.nodes.length * 4,
              0,
            );
          return {
            data: {
              orders: {
                nodes,
                pageInfo: { hasNextPage: end < all.length, endCursor: page.length ? offsetCursor(end) : null },
              },
            },
            actualCost: actual,
          };
        },
      },
      OrderLineItemsPage: {
        handle: (v) => {
          const o = typeof v.id === "string" ? book.get(v.id) : null;
          if (!o) return { data: { order: null }, actualCost: 1 };
          const items = groupOf(o).children.map(({ __parentId: _parent, ...line }) => line);
          const from = cursorOffset(v.after);
          const page = items.slice(from, from + LINE_PAGE_MAX);
          const end = from + page.length;
          return {
            data: {
              order: {
                id: v.id,
                lineItems: {
                  nodes: page,
                  pageInfo: { hasNextPage: end < items.length, endCursor: page.length ? offsetCursor(end) : null },
                },
              },
            },
            actualCost: 3 + page.length * 4,
          };
        },
      },
      // `OrderByName` (app/.server/shopify/shopper-documents.ts): "find my order" by the number shoppers see.
      OrderByName: {
        handle: (variables) => {
          const found = orderByName(book, variables.query);
          return {
            data: {
              orders: {
                nodes: found
                  ? [
                      {
                        id: `gid://shopify/Order/${found.id}`,
                        legacyResourceId: String(found.id),
                        name: `#${found.number}`,
                      },
                    ]
                  : [],
              },
            },
          };
        },
      },
    },
    bulkRoots: {
      orders: {
        objectCount: (query) => {
          let n = 0;
          for (const o of matching(query)) n += 1 + o.lines.length;
          return n;
        },
        rootObjectCount: (query) => Array.from(matching(query)).length,
        *groups(query) {
          for (const o of matching(query)) yield groupOf(o);
        },
      },
    },
    customerConsent: (id) => book.customerConsent(id),
  };
}

const lineCursor = (n: number) => Buffer.from(`line:${n}`).toString("base64url");
function lineOffset(cursor: unknown): number {
  const m = typeof cursor === "string" ? /^line:(\d+)$/.exec(Buffer.from(cursor, "base64url").toString()) : null;
  return m ? Number(m[1]) : 0;
}

/** `count` of an order's lines from `from`, as the shopper documents select them, with their page info. */
function customerOrderLines(o: SimOrder, seed: number, from: number, count: number) {
  const page = o.lines.slice(from, from + count);
  const end = from + page.length;
  return {
    nodes: page.map((l) => {
      const index = l.productId ? legacy(l.productId) - PRODUCT_ID_BASE : -1;
      const product = index >= 0 ? generateProduct(index, seed) : null;
      return {
        title: l.title,
        product: product
          ? {
              legacyResourceId: String(legacy(product.id)),
              handle: product.handle,
              featuredMedia: product.featuredMedia,
            }
          : null,
      };
    }),
    pageInfo: { hasNextPage: end < o.lines.length, endCursor: page.length ? lineCursor(end) : null },
  };
}

// What Shopify charges once it has run them: the objects returned (a line and its product's 4).
const linesActualCost = (lines: { nodes: unknown[] }) => 2 + lines.nodes.length * 5;

/** An order as `CustomerOrders` / `CustomerOrder` select it (app/.server/shopify/shopper-documents.ts). */
function customerOrderNode(o: SimOrder, seed: number, lines: number) {
  return {
    legacyResourceId: String(o.id),
    name: `#${o.number}`,
    processedAt: o.processedAt,
    cancelledAt: o.cancelledAt,
    displayFulfillmentStatus: o.lines.every((l) => unfulfilled(l) === 0)
      ? "FULFILLED"
      : o.lines.some((l) => l.fulfilled > 0)
        ? "PARTIALLY_FULFILLED"
        : "UNFULFILLED",
    customer: o.customer ? { legacyResourceId: String(o.customer.id) } : null,
    lineItems: customerOrderLines(o, seed, 0, lines),
  };
}

/**
 * The customer account reads of the order history: `CustomerOrders` (a customer's orders, newest
 * first, paged by cursor) and `CustomerOrder` (one order with its customer), over a book.
 */
export function customerOrderOperations(book: OrderBook): Record<string, OperationHandler> {
  const gidError = (kind: string, gid: string) => ({
    errors: [{ message: `Invalid global id '${gid}'`, extensions: { code: "argumentLiteralsIncompatible" } }],
    kind,
  });
  return {
    CustomerOrders: {
      handle: (v) => {
        const gid = typeof v.id === "string" ? v.id : "";
        const m = /^gid:\/\/shopify\/Customer\/(\d+)$/.exec(gid);
        if (!m) return gidError("customer", gid);
        const first = Math.max(1, Math.min(250, Number(v.first) || 0));
        const from = typeof v.after === "string" && v.after ? Number(Buffer.from(v.after, "base64url").toString()) : 0;
        const mine = book
          .all()
          .filter((o) => String(o.customer?.id) === m[1])
          .sort((a, b) => (a.processedAt === b.processedAt ? b.id - a.id : a.processedAt < b.processedAt ? 1 : -1));
        if (!mine.length && !book.customerConsent(Number(m[1]))) return { data: { customer: null } };
        const page = mine.slice(from, from + first);
        const end = from + page.length;
        const nodes = page.map((o) => customerOrderNode(o, book.seed, HISTORY_LINES_PER_ORDER));
        return {
          actualCost: 1 + 2 + nodes.reduce((n, o) => n + 2 + linesActualCost(o.lineItems), 0),
          data: {
            customer: {
              id: gid,
              orders: {
                nodes,
                pageInfo: {
                  hasNextPage: end < mine.length,
                  endCursor: page.length ? Buffer.from(String(end)).toString("base64url") : null,
                },
              },
            },
          },
        };
      },
    },
    CustomerOrder: {
      handle: (v) => {
        const gid = typeof v.id === "string" ? v.id : "";
        if (!/^gid:\/\/shopify\/Order\/\d+$/.test(gid)) return gidError("order", gid);
        const o = book.get(gid);
        if (!o) return { data: { order: null }, actualCost: 1 };
        const order = customerOrderNode(o, book.seed, ORDER_LINES_PER_QUERY);
        return { data: { order }, actualCost: 2 + linesActualCost(order.lineItems) };
      },
    },
    // The rating modal's pre-check (RATE_CHECK_ORDER): an order's name and customer, and one product by id.
    RateCheckOrder: {
      handle: (v) => {
        const gid = typeof v.id === "string" ? v.id : "";
        if (!/^gid:\/\/shopify\/Order\/\d+$/.test(gid)) return gidError("order", gid);
        const product = productById(book, v.product);
        if ("errors" in product) return product;
        const o = book.get(gid);
        const order = o ? rateCheckOrderNode(o) : null;
        return {
          data: { order, product: product.node },
          actualCost: (order ? 1 + (order.customer ? 1 : 0) : 0) + product.cost,
        };
      },
    },
    RateCheckOrderByName: {
      handle: (v) => {
        const product = productById(book, v.product);
        if ("errors" in product) return product;
        const o = orderByName(book, v.query);
        const nodes = o ? [rateCheckOrderNode(o)] : [];
        return {
          data: { orders: { nodes }, product: product.node },
          actualCost: 2 + nodes.reduce((n, x) => n + 1 + (x.customer ? 1 : 0), 0) + product.cost,
        };
      },
    },
    CustomerOrderLines: {
      handle: (v) => {
        const gid = typeof v.id === "string" ? v.id : "";
        if (!/^gid:\/\/shopify\/Order\/\d+$/.test(gid)) return gidError("order", gid);
        const o = book.get(gid);
        if (!o) return { data: { order: null }, actualCost: 1 };
        const lineItems = customerOrderLines(o, book.seed, lineOffset(v.after), ORDER_LINES_PER_QUERY);
        return { data: { order: { id: gid, lineItems } }, actualCost: 1 + linesActualCost(lineItems) };
      },
    },
  };
}

/** The order a `name:#1001` search finds (the shopper documents search by the number shoppers see). */
function orderByName(book: OrderBook, query: unknown): SimOrder | undefined {
  const q = typeof query === "string" ? query : "";
  const name = /^name:(#?\d+)$/.exec(q.trim())?.[1];
  const wanted = name ? (name.startsWith("#") ? name : `#${name}`) : null;
  return wanted ? book.all().find((o) => `#${o.number}` === wanted) : undefined;
}

function rateCheckOrderNode(o: SimOrder) {
  return {
    legacyResourceId: String(o.id),
    name: `#${o.number}`,
    customer: o.customer ? { legacyResourceId: String(o.customer.id) } : null,
  };
}

/** `product(id:)` over the book's products: null for an id Shopify has no product of, an error for a malformed one. */
function productById(
  book: OrderBook,
  id: unknown,
): { node: Record<string, unknown> | null; cost: number } | { errors: GraphqlError[] } {
  const gid = typeof id === "string" ? id : "";
  if (!/^gid:\/\/shopify\/Product\/\d+$/.test(gid))
    return {
      errors: [{ message: `Invalid global id '${gid}'`, extensions: { code: "argumentLiteralsIncompatible" } }],
    };
  const index = legacy(gid) - PRODUCT_ID_BASE;
  if (index < 0 || index >= book.productCount) return { node: null, cost: 0 };
  const p = generateProduct(index, book.seed);
  const node = {
    legacyResourceId: String(legacy(p.id)),
    title: p.title,
    handle: p.handle,
    featuredMedia: p.featuredMedia,
  };
  return { node, cost: 1 + (p.featuredMedia ? 3 : 0) };
}
