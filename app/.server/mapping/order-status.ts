import type { ShopSettings } from "../settings";
import { legacyId } from "./keys";
import { deliveryMethodOf } from "./order.channel";
import { DAY_MS, localDate, parseTime } from "./order.dates";
import type { OrderStatusV2 } from "../reviews";
import type { ShopifyFulfillment, ShopifyLineItem, ShopifyOrder } from "./order.schemas";

// The version-2 status of an order, derived from the WHOLE order (cancellation, refunds, every
// fulfillment and its tracking, payment), never from the webhook topic that happened to deliver it:
// webhooks arrive late and out of order, and the same payload must always give the same status.

/** A fulfillment event (GraphQL FulfillmentEvent or REST fulfillment_events), status in any case. */
export interface FulfillmentEvent {
  status: string;
  happenedAt: string;
  estimatedDeliveryAt?: string | null;
}

/** Events by fulfillment id (legacy id or GID). */
export type FulfillmentEvents = Record<string, FulfillmentEvent[]>;

export type OrderStatusSettings = Pick<ShopSettings["orders"], "deliveredAfterDays">;

export interface StatusContext {
  settings: OrderStatusSettings;
  fulfillmentEvents?: FulfillmentEvents;
  now: Date;
}

interface Stamp {
  at: Date;
  /** The timestamp as written, for the calendar day in its own offset. */
  raw: string;
}

export interface FulfillmentFacts {
  id: string;
  lineItemIds: ReadonlySet<string>;
  /** On its way or arrived: status success, or tracking/events say it left. */
  shipped: boolean;
  /** Tracking or an event says delivered (or picked up by the buyer). */
  delivered: boolean;
  /** The latest tracking state is "ready for pickup": the buyer has not collected it yet. */
  awaitingPickup: boolean;
  shippedAt?: Stamp;
  deliveredAt?: Stamp;
  estimatedDeliveryAt?: Stamp;
}

export interface OrderFacts {
  cancelled: boolean;
  financialStatus: string;
  /** Fulfillments that are not cancelled, in error or failed. */
  fulfillments: FulfillmentFacts[];
  anyShipped: boolean;
  /** Every active fulfillment has left and every shippable line item is fulfilled. */
  fullyShipped: boolean;
  allShippableFulfilled: boolean;
  allLinesCancelled: boolean;
  /** POS sale without shipping, or local pickup: a fulfillment means the buyer has the goods. */
  handedOver: boolean;
  latestShipment?: Stamp;
  deliveredAfterDays: number | null;
  now: Date;
}

export interface StatusRow {
  when: string;
  predicate: (f: OrderFacts) => boolean;
  status: OrderStatusV2;
  /** For delivered rows: the delivery day (YYYY-MM-DD) the row implies. */
  deliveredDate?: (f: OrderFacts) => string | undefined;
}

// Shipment statuses (REST `shipment_status`, fulfillment event `status`) that mean the parcel left.
const LEFT = new Set([
  "carrier_picked_up",
  "in_transit",
  "out_for_delivery",
  "attempted_delivery",
  "delayed",
  "ready_for_pickup",
  "delivered",
  "picked_up",
]);
// "picked_up" is the local-pickup event of the buyer collecting the order.
const ARRIVED = new Set(["delivered", "picked_up"]);
const INACTIVE_FULFILLMENT = new Set(["cancelled", "error", "failure"]);

const norm = (s: string | null | undefined): string => (typeof s === "string" ? s.trim().toLowerCase() : "");

function stamp(raw: string | null | undefined): Stamp | undefined {
  const at = parseTime(raw);
  return at && raw ? { at, raw } : undefined;
}

function latest(stamps: (Stamp | undefined)[]): Stamp | undefined {
  let best: Stamp | undefined;
  for (const s of stamps) if (s && (!best || s.at.getTime() > best.at.getTime())) best = s;
  return best;
}

function eventsById(events: FulfillmentEvents | undefined): Map<string, FulfillmentEvent[]> {
  const byId = new Map<string, FulfillmentEvent[]>();
  for (const [id, list] of Object.entries(events ?? {})) {
    if (!Array.isArray(list)) continue;
    const key = legacyId(id);
    byId.set(key, [...(byId.get(key) ?? []), ...list]);
  }
  for (const list of byId.values()) {
    list.sort((a, b) => (parseTime(a.happenedAt)?.getTime() ?? 0) - (parseTime(b.happenedAt)?.getTime() ?? 0));
  }
  return byId;
}

export function fulfillmentFacts(f: ShopifyFulfillment, events: readonly FulfillmentEvent[] = []): FulfillmentFacts {
  const status = norm(f.status);
  const shipment = norm(f.shipment_status);
  const arrivals = events.filter((e) => ARRIVED.has(norm(e.status)));
  const delivered = ARRIVED.has(shipment) || arrivals.length > 0;
  // Without an event, the fulfillment's own last update is when its shipment_status turned delivered.
  const deliveredAt = delivered ? (latest(arrivals.map((e) => stamp(e.happenedAt))) ?? stamp(f.updated_at)) : undefined;
  const lastState = events.length > 0 ? norm(events[events.length - 1]!.status) : shipment;
  const estimate =
    [...events].reverse().find((e) => e.estimatedDeliveryAt)?.estimatedDeliveryAt ?? f.estimated_delivery_at;
  return {
    id: legacyId(f.id),
    lineItemIds: new Set((f.line_items ?? []).map((li) => legacyId(li.id))),
    shipped: status === "success" || LEFT.has(shipment) || events.some((e) => LEFT.has(norm(e.status))),
    delivered,
    awaitingPickup: !delivered && lastState === "ready_for_pickup",
    shippedAt: stamp(f.created_at),
    deliveredAt,
    estimatedDeliveryAt: stamp(estimate),
  };
}

/** Units of each line item refunded, by line item id. */
export function refundedQuantities(order: Pick<ShopifyOrder, "refunds">): Map<string, number> {
  const refunded = new Map<string, number>();
  for (const refund of order.refunds ?? []) {
    for (const rli of refund.refund_line_items ?? []) {
      if (rli.line_item_id == null || typeof rli.quantity !== "number") continue;
      const id = legacyId(rli.line_item_id);
      refunded.set(id, (refunded.get(id) ?? 0) + rli.quantity);
    }
  }
  return refunded;
}

/**
 * A line removed by an order edit (current_quantity 0) or refunded in full. Whether current_quantity
 * already subtracts refunds differs between sources, so both are checked.
 */
export function isLineCancelled(line: ShopifyLineItem, refunded: ReadonlyMap<string, number>): boolean {
  if (typeof line.current_quantity === "number" && line.current_quantity <= 0) return true;
  const qty = line.quantity;
  return typeof qty === "number" && qty - (refunded.get(legacyId(line.id)) ?? 0) <= 0;
}

function isShippable(line: ShopifyLineItem, refunded: ReadonlyMap<string, number>): boolean {
  return line.requires_shipping !== false && line.gift_card !== true && !isLineCancelled(line, refunded);
}

function isLineFulfilled(line: ShopifyLineItem): boolean {
  if (typeof line.fulfillable_quantity === "number") return line.fulfillable_quantity <= 0;
  return norm(line.fulfillment_status) === "fulfilled";
}

export function orderFacts(order: ShopifyOrder, ctx: StatusContext): OrderFacts {
  const events = eventsById(ctx.fulfillmentEvents);
  const fulfillments = (order.fulfillments ?? [])
    .filter((f) => !INACTIVE_FULFILLMENT.has(norm(f.status)))
    .map((f) => fulfillmentFacts(f, events.get(legacyId(f.id))));
  const lines = order.line_items ?? [];
  const refunded = refundedQuantities(order);
  const allShippableFulfilled =
    norm(order.fulfillment_status) === "fulfilled" ||
    lines.filter((l) => isShippable(l, refunded)).every(isLineFulfilled);
  const method = deliveryMethodOf(order);
  return {
    cancelled: typeof order.cancelled_at === "string" && order.cancelled_at.trim() !== "",
    financialStatus: norm(order.financial_status),
    fulfillments,
    anyShipped: fulfillments.some((f) => f.shipped),
    fullyShipped: allShippableFulfilled && fulfillments.length > 0 && fulfillments.every((f) => f.shipped),
    allShippableFulfilled,
    allLinesCancelled: lines.length > 0 && lines.every((l) => isLineCancelled(l, refunded)),
    handedOver: method === "in store" || method === "pickup",
    latestShipment: latest(fulfillments.map((f) => f.shippedAt)),
    deliveredAfterDays: ctx.settings.deliveredAfterDays ?? null,
    now: ctx.now,
  };
}

function deliveryDue(f: OrderFacts): Date | undefined {
  if (f.deliveredAfterDays == null || !f.latestShipment) return undefined;
  return new Date(f.latestShipment.at.getTime() + f.deliveredAfterDays * DAY_MS);
}

/** The payment part of the table: also the status of items that are not fulfilled yet. */
export const PAYMENT_STATUS_ROWS: readonly StatusRow[] = [
  {
    when: "financial status paid, partially_paid or partially_refunded",
    predicate: (f) => ["paid", "partially_paid", "partially_refunded"].includes(f.financialStatus),
    status: "paid",
  },
  {
    when: "financial status authorized",
    predicate: (f) => f.financialStatus === "authorized",
    status: "authorized",
  },
  {
    when: "otherwise (pending, expired, unknown)",
    predicate: () => true,
    status: "created",
  },
];

/** Exported on its own: `deliveryDueAt` asks whether this row is the one that will apply. */
export const DELIVERED_BY_AGE: StatusRow = {
  when: "fully shipped and the latest shipment is deliveredAfterDays old",
  predicate: (f) => {
    const due = deliveryDue(f);
    return f.fullyShipped && due !== undefined && due.getTime() <= f.now.getTime();
  },
  status: "delivered",
  deliveredDate: (f) => localDate(f.latestShipment?.raw, f.deliveredAfterDays ?? 0),
};

/**
 * Evaluated top to bottom, first match wins. Notes on the choices:
 * - refunded/voided with nothing shipped is a sale that did not happen: cancelled. Once something
 *   left, the buyer has (or had) the goods and may review them, so the fulfillment rows decide.
 * - "invoiced" is never produced: Shopify has no invoiced state distinct from pending payment terms.
 * - Delivery is known from tracking (shipment_status, fulfillment events); POS sales and local
 *   pickups are delivered when fulfilled; otherwise, when the shop enables deliveredAfterDays, a
 *   fully shipped order counts as delivered that many days after its latest shipment.
 */
export const ORDER_STATUS_ROWS: readonly StatusRow[] = [
  {
    when: "cancelled_at is set",
    predicate: (f) => f.cancelled,
    status: "cancelled",
  },
  {
    when: "refunded or voided and nothing shipped",
    predicate: (f) => (f.financialStatus === "refunded" || f.financialStatus === "voided") && !f.anyShipped,
    status: "cancelled",
  },
  {
    when: "every line item removed or refunded and nothing shipped",
    predicate: (f) => f.allLinesCancelled && !f.anyShipped,
    status: "cancelled",
  },
  {
    when: "every active fulfillment delivered and every shippable item fulfilled",
    predicate: (f) => f.fulfillments.length > 0 && f.fulfillments.every((x) => x.delivered) && f.allShippableFulfilled,
    status: "delivered",
    deliveredDate: (f) => localDate(latest(f.fulfillments.map((x) => x.deliveredAt))?.raw),
  },
  {
    when: "POS sale or local pickup, fully fulfilled and nothing awaiting pickup",
    predicate: (f) => f.handedOver && f.fullyShipped && !f.fulfillments.some((x) => x.awaitingPickup),
    status: "delivered",
    deliveredDate: (f) => localDate(f.latestShipment?.raw),
  },
  DELIVERED_BY_AGE,
  {
    when: "any active fulfillment shipped (success, in transit, delivered)",
    predicate: (f) => f.anyShipped,
    status: "shipped",
  },
  ...PAYMENT_STATUS_ROWS,
];

export interface DerivedStatus {
  status: OrderStatusV2;
  /** The `when` of the row that matched. */
  rule: string;
  deliveredDate?: string;
  estimatedDeliveryDate?: string;
  facts: OrderFacts;
}

function firstMatch(rows: readonly StatusRow[], facts: OrderFacts): StatusRow {
  // The last row of each table is unconditional, so a row is always found.
  return rows.find((r) => r.predicate(facts)) ?? rows[rows.length - 1]!;
}

export function deriveOrderStatus(order: ShopifyOrder, ctx: StatusContext): DerivedStatus {
  const facts = orderFacts(order, ctx);
  const row = firstMatch(ORDER_STATUS_ROWS, facts);
  const result: DerivedStatus = { status: row.status, rule: row.when, facts };
  if (row.deliveredDate) result.deliveredDate = row.deliveredDate(facts);
  if (row.status === "shipped") {
    // The order is complete when its last parcel arrives: the latest estimate of what is still on the way.
    const pending = facts.fulfillments.filter((x) => x.shipped && !x.delivered);
    result.estimatedDeliveryDate = localDate(latest(pending.map((x) => x.estimatedDeliveryAt))?.raw);
  }
  return result;
}

/** paid, authorized or created: what the payment alone says. */
export function paymentStatus(order: ShopifyOrder): OrderStatusV2 {
  const facts = orderFacts(order, { settings: { deliveredAfterDays: null }, now: new Date(0) });
  return firstMatch(PAYMENT_STATUS_ROWS, facts).status;
}

/**
 * When a fully shipped order without delivery tracking will count as delivered under
 * `deliveredAfterDays`, so that a delayed job can re-map it then. Null when the setting is off or the
 * rule can never apply (cancelled, already delivered by tracking/pickup, not fully shipped yet). The
 * returned time may be in the past: the order is then already delivered by that rule.
 */
export function deliveryDueAt(
  order: ShopifyOrder,
  settings: OrderStatusSettings,
  fulfillmentEvents?: FulfillmentEvents,
): Date | null {
  if (settings.deliveredAfterDays == null) return null;
  // `now` is irrelevant to every row before the age rule; the far future makes the age rule itself
  // match whenever it could ever apply.
  const facts = orderFacts(order, { settings, fulfillmentEvents, now: new Date(8.64e15) });
  const row = firstMatch(ORDER_STATUS_ROWS, facts);
  if (row !== DELIVERED_BY_AGE) return null;
  return deliveryDue(facts) ?? null;
}
