import { z } from "zod";
import {
  type OptOuts,
  legacyId,
  parseTime,
  deliveryDueAt,
  deriveOrderStatus,
  type FulfillmentEvent,
  type OrderStatusSettings,
  shopifyFulfillmentSchema,
  shopifyOrderSchema,
  type ShopifyFulfillment,
  type ShopifyOrder,
} from "../mapping";

// What the connector knows about an order's delivery between two order webhooks, kept in
// OrderState.fulfillmentEvents (JSON text). Shopify reports shipment progress through fulfillments/*
// and fulfillment_events/create, which do not carry the order, and a tracking update often comes
// with no orders/updated at all. So that a fulfillment webhook can tell whether the order is now
// shipped or delivered, the column holds, besides the events the mapper reads:
//   "<fulfillment id>": [events]       the documented shape, read by the order mapper as is
//   "$fulfillments": {id: fulfillment} each fulfillment as its newest fulfillments/* webhook said
//   "$order": {...}                    the status-relevant skeleton of the last order applied
//   "$serviceOrderId": "#1001"         the orderId the service knows the order by
//   "$newsAt": "2026-…Z"               when shipment news last waited to be announced (its timer)
//   "$optOuts": {body, held}           the opt-outs of the last whole order sent, and those the
//                                      service holds now (a consent change may have updated them)
// Reserved keys start with "$" (never a fulfillment id) and hold objects or strings, which the
// mapper skips; they are stripped before the events are handed to it anyway.
// Nothing here is buyer contact data: ids, statuses, times, quantities, shipping-rate names.

export interface TrackedEvent extends FulfillmentEvent {
  /** The Shopify fulfillment event id, to ignore a repeated delivery of the same event. */
  id?: string;
}

export interface OrderTracking {
  /** Fulfillment id (legacy) → events, oldest first. */
  events: Record<string, TrackedEvent[]>;
  /** Fulfillment id (legacy) → the fulfillment as its newest fulfillments/* webhook described it. */
  fulfillments: Record<string, ShopifyFulfillment>;
  /** The status-relevant part of the last order payload applied; null until an order webhook came. */
  order: ShopifyOrder | null;
  /** The service's orderId of this order (the mapper's choice: Shopify id or order name). */
  serviceOrderId: string | null;
  /**
   * The buyer's marketing consent as last read through GraphQL (reconciliation). Webhooks carry none
   * since API 2025-01: the live path reuses this one, so the opt-outs sent do not flip between the
   * two paths. Consent states only, no contact data.
   */
  consent: { email?: string; sms?: string } | null;
  /**
   * When a fulfillment webhook last brought news that waits for its announcement (ISO time; see
   * timed-updates.ts): of several timers of one order, only the one of the newest news sends.
   */
  newsAt: string | null;
  /**
   * Opt-outs: `body` those of the last whole order sent (the fingerprint's), `held` those the
   * service holds now. They differ after a consent change updated the order upstream on its own
   * (order-consent.ts). Null for orders sent before this was kept.
   */
  optOuts: { body: OptOuts; held: OptOuts } | null;
}

export const emptyTracking = (): OrderTracking => ({
  events: {},
  fulfillments: {},
  order: null,
  serviceOrderId: null,
  consent: null,
  newsAt: null,
  optOuts: null,
});

const FULFILLMENTS_KEY = "$fulfillments";
const ORDER_KEY = "$order";
const SERVICE_ORDER_ID_KEY = "$serviceOrderId";
const CONSENT_KEY = "$consent";
const NEWS_AT_KEY = "$newsAt";
const OPT_OUTS_KEY = "$optOuts";
const optOutsSchema = z.object({ optOutEmail: z.boolean(), optOutSMS: z.boolean(), optOutWhatsApp: z.boolean() });
const trackedOptOutsSchema = z.object({ body: optOutsSchema, held: optOutsSchema });
const consentSchema = z.object({ email: z.string().optional(), sms: z.string().optional() });

const trackedEventSchema = z.object({
  id: z.string().optional(),
  status: z.string(),
  happenedAt: z.string(),
  estimatedDeliveryAt: z.string().nullish(),
});

// The deliveries of one order change come together, and each reads the same column text: what
// was read is kept (frozen: callers build new trackings from it, never change it) for the next.
const PARSED_KEPT = 1000;
const parsed = new Map<string, OrderTracking>();

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** Reads the column. A value that does not parse loses only itself, never the rest. */
export function parseTracking(text: string | null | undefined): OrderTracking {
  if (!text) return emptyTracking();
  const known = parsed.get(text);
  if (known) return known;
  const tracking = deepFreeze(readTracking(text));
  parsed.set(text, tracking);
  if (parsed.size > PARSED_KEPT) parsed.delete(parsed.keys().next().value as string);
  return tracking;
}

function readTracking(text: string): OrderTracking {
  const tracking = emptyTracking();
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return tracking;
  }
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return tracking;
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if (key === FULFILLMENTS_KEY) {
      const parsed = z.record(z.string(), shopifyFulfillmentSchema).safeParse(value);
      if (parsed.success) tracking.fulfillments = parsed.data;
    } else if (key === ORDER_KEY) {
      const parsed = shopifyOrderSchema.safeParse(value);
      if (parsed.success) tracking.order = parsed.data;
    } else if (key === SERVICE_ORDER_ID_KEY) {
      if (typeof value === "string" && value) tracking.serviceOrderId = value;
    } else if (key === NEWS_AT_KEY) {
      if (typeof value === "string" && value) tracking.newsAt = value;
    } else if (key === OPT_OUTS_KEY) {
      const parsed = trackedOptOutsSchema.safeParse(value);
      if (parsed.success) tracking.optOuts = parsed.data;
    } else if (key === CONSENT_KEY) {
      const parsed = consentSchema.safeParse(value);
      if (parsed.success) tracking.consent = parsed.data;
    } else if (!key.startsWith("$") && Array.isArray(value)) {
      const events = value.flatMap((e) => {
        const parsed = trackedEventSchema.safeParse(e);
        return parsed.success ? [parsed.data] : [];
      });
      if (events.length) tracking.events[key] = events;
    }
  }
  return tracking;
}

export function serializeTracking(tracking: OrderTracking): string {
  const out: Record<string, unknown> = { ...tracking.events };
  if (Object.keys(tracking.fulfillments).length) out[FULFILLMENTS_KEY] = tracking.fulfillments;
  if (tracking.order) out[ORDER_KEY] = tracking.order;
  if (tracking.serviceOrderId) out[SERVICE_ORDER_ID_KEY] = tracking.serviceOrderId;
  if (tracking.consent) out[CONSENT_KEY] = tracking.consent;
  if (tracking.newsAt) out[NEWS_AT_KEY] = tracking.newsAt;
  if (tracking.optOuts) out[OPT_OUTS_KEY] = tracking.optOuts;
  return JSON.stringify(out);
}

// ---------------------------------------------------------------------------------------------
// What is kept of payloads. Picked field by field: Shopify payloads carry the buyer's name, e-mail,
// phone and addresses (orders, and a fulfillment's `destination`), none of which may be stored.

const pickDefined = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null)) as T;

function fulfillmentSnapshot(f: ShopifyFulfillment): ShopifyFulfillment {
  return pickDefined({
    id: legacyId(f.id),
    status: f.status,
    shipment_status: f.shipment_status,
    created_at: f.created_at,
    updated_at: f.updated_at,
    estimated_delivery_at: f.estimated_delivery_at,
    line_items: f.line_items?.map((li) => pickDefined({ id: legacyId(li.id), quantity: li.quantity })),
  });
}

/**
 * The fields of an order that its status depends on (order-status.ts and deliveryMethodOf): enough to
 * derive shipped/delivered again when a fulfillment webhook comes without the order.
 */
export function statusSkeleton(order: ShopifyOrder): ShopifyOrder {
  return pickDefined({
    id: legacyId(order.id),
    created_at: order.created_at,
    updated_at: order.updated_at,
    cancelled_at: order.cancelled_at,
    financial_status: order.financial_status,
    fulfillment_status: order.fulfillment_status,
    source_name: order.source_name,
    shipping_lines: order.shipping_lines?.map((s) =>
      pickDefined({
        code: s.code,
        title: s.title,
        source: s.source,
        carrier_identifier: s.carrier_identifier,
        delivery_category: s.delivery_category,
      }),
    ),
    line_items: order.line_items?.map((l) =>
      pickDefined({
        id: legacyId(l.id),
        quantity: l.quantity,
        current_quantity: l.current_quantity,
        fulfillable_quantity: l.fulfillable_quantity,
        fulfillment_status: l.fulfillment_status,
        requires_shipping: l.requires_shipping,
        gift_card: l.gift_card,
      }),
    ),
    refunds: order.refunds?.map((r) =>
      pickDefined({
        created_at: r.created_at,
        refund_line_items: r.refund_line_items?.map((rli) =>
          pickDefined({
            line_item_id: rli.line_item_id == null ? undefined : legacyId(rli.line_item_id),
            quantity: rli.quantity,
          }),
        ),
      }),
    ),
    fulfillments: order.fulfillments?.map(fulfillmentSnapshot),
  });
}

const isNewer = (a: string | null | undefined, b: string | null | undefined): boolean =>
  (parseTime(a)?.getTime() ?? -Infinity) > (parseTime(b)?.getTime() ?? -Infinity);

const INACTIVE_FULFILLMENT = new Set(["cancelled", "error", "failure"]);

/**
 * The order with what fulfillment webhooks said since:
 * - a fulfillment the payload lacks is added: a fulfillment never leaves an order's list, so the
 *   payload predates it, and its line items' fulfillable quantities do not count it yet, so they are
 *   lowered by what it carries (unless it was cancelled, or the payload has no fulfillment list at
 *   all: trimmed by include_fields, it proves nothing about when it was written);
 * - one the webhook saw in a newer state replaces the payload's (keeping the payload's line items if
 *   the webhook had none).
 */
export function withFulfillments(order: ShopifyOrder, fulfillments: OrderTracking["fulfillments"]): ShopifyOrder {
  const known = Object.values(fulfillments);
  if (!known.length) return order;
  const merged = [...(order.fulfillments ?? [])];
  const predates = Array.isArray(order.fulfillments);
  const unaccounted = new Map<string, number | null>(); // line id → units fulfilled (null: unknown)
  for (const snap of known) {
    const i = merged.findIndex((f) => legacyId(f.id) === legacyId(snap.id));
    if (i < 0) {
      merged.push(snap);
      if (!predates || INACTIVE_FULFILLMENT.has(snap.status?.trim().toLowerCase() ?? "")) continue;
      for (const li of snap.line_items ?? []) {
        const id = legacyId(li.id);
        const before = unaccounted.has(id) ? unaccounted.get(id)! : 0;
        unaccounted.set(id, before === null || typeof li.quantity !== "number" ? null : before + li.quantity);
      }
    } else if (isNewer(snap.updated_at, merged[i]!.updated_at)) {
      merged[i] = { ...snap, line_items: snap.line_items ?? merged[i]!.line_items };
    }
  }
  const lineItems = order.line_items?.map((line) => {
    const id = legacyId(line.id);
    if (!unaccounted.has(id) || typeof line.fulfillable_quantity !== "number") return line;
    const units = unaccounted.get(id);
    return { ...line, fulfillable_quantity: units == null ? 0 : Math.max(0, line.fulfillable_quantity - units) };
  });
  return { ...order, fulfillments: merged, ...(lineItems ? { line_items: lineItems } : {}) };
}

// ---------------------------------------------------------------------------------------------
// Fulfillment webhooks

const shopifyId = z.union([z.number(), z.string().min(1)]);

/** fulfillments/create and fulfillments/update: a REST fulfillment with its order_id. */
export const fulfillmentWebhookSchema = shopifyFulfillmentSchema.extend({ order_id: shopifyId });
export type FulfillmentWebhook = z.infer<typeof fulfillmentWebhookSchema>;

/** fulfillment_events/create. */
export const fulfillmentEventWebhookSchema = z.looseObject({
  id: shopifyId,
  fulfillment_id: shopifyId,
  order_id: shopifyId,
  status: z.string().min(1),
  happened_at: z.string().nullish(),
  created_at: z.string().nullish(),
  estimated_delivery_at: z.string().nullish(),
});
export type FulfillmentEventWebhook = z.infer<typeof fulfillmentEventWebhookSchema>;

/** Keeps the fulfillment unless an equally new or newer state of it is already known. */
export function recordFulfillment(tracking: OrderTracking, f: FulfillmentWebhook): OrderTracking {
  const id = legacyId(f.id);
  const known = tracking.fulfillments[id];
  if (known && isNewer(known.updated_at, f.updated_at)) return tracking;
  return { ...tracking, fulfillments: { ...tracking.fulfillments, [id]: fulfillmentSnapshot(f) } };
}

/** Adds the event to its fulfillment's list (once: a repeated event id is ignored). */
export function recordEvent(tracking: OrderTracking, e: FulfillmentEventWebhook, now: Date): OrderTracking {
  const fulfillmentId = legacyId(e.fulfillment_id);
  const id = legacyId(e.id);
  const list = tracking.events[fulfillmentId] ?? [];
  if (list.some((x) => x.id === id)) return tracking;
  const event: TrackedEvent = pickDefined({
    id,
    status: e.status,
    happenedAt: e.happened_at ?? e.created_at ?? now.toISOString(),
    estimatedDeliveryAt: e.estimated_delivery_at,
  });
  const events = [...list, event].sort(
    (a, b) => (parseTime(a.happenedAt)?.getTime() ?? 0) - (parseTime(b.happenedAt)?.getTime() ?? 0),
  );
  return { ...tracking, events: { ...tracking.events, [fulfillmentId]: events } };
}

// ---------------------------------------------------------------------------------------------
// Status updates without the order

/** The update operation's status set that can follow a sent status (spec: created, authorized, shipped, delivered). */
export type StatusUpdate = { status: "shipped" } | { status: "delivered"; deliveredDate?: string };

// Statuses after which a shipment is news; "invoiced" is never produced but would qualify.
const BEFORE_SHIPMENT = new Set(["created", "authorized", "paid", "invoiced"]);

/**
 * What a fulfillment webhook (or the delivered-after-N-days timer) changes for an order already sent
 * with `lastStatus`: delivered when every active fulfillment arrived and everything shippable left
 * (order-status.ts decides, on the last order plus what the fulfillment webhooks said), shipped when
 * the service still has a pre-shipment status and something left, nothing otherwise. Delivered and
 * cancelled orders are never moved by these webhooks: the next order webhook carries the whole order.
 */
export function statusUpdateFor(
  lastStatus: string | null,
  tracking: OrderTracking,
  settings: OrderStatusSettings,
  now: Date,
): StatusUpdate | null {
  if (!tracking.order || !lastStatus || lastStatus === "delivered" || lastStatus === "cancelled") return null;
  const derived = deriveOrderStatus(withFulfillments(tracking.order, tracking.fulfillments), {
    settings,
    fulfillmentEvents: tracking.events,
    now,
  });
  if (derived.status === "delivered") {
    return derived.deliveredDate
      ? { status: "delivered", deliveredDate: derived.deliveredDate }
      : { status: "delivered" };
  }
  if (derived.status === "shipped" && BEFORE_SHIPMENT.has(lastStatus)) return { status: "shipped" };
  return null;
}

/** When the tracked order will count as delivered under deliveredAfterDays, or null. */
export function trackedDeliveryDueAt(tracking: OrderTracking, settings: OrderStatusSettings): Date | null {
  if (!tracking.order) return null;
  return deliveryDueAt(withFulfillments(tracking.order, tracking.fulfillments), settings, tracking.events);
}
