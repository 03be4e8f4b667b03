import { createHash } from "node:crypto";
import type { ShopSettings } from "../settings";
import { legacyId, type VariantKeyMode } from "./keys";
import { deliveryMethodOf, pointOfSaleOf } from "./order.channel";
import { parseTime, toIsoUtc } from "./order.dates";
import { mapItems, type ProductData } from "./order.items";
import { deriveOrderStatus, isLineCancelled, refundedQuantities, type FulfillmentEvents } from "./order-status";
import type { MappedOrder, ShopifyOrder } from "./order.schemas";
import { trimmed } from "./order.text";
import { normalizePhone, type NormalizedPhone } from "./phone";
import { consentState, optOutsFor, type ConsentState, type ConsentStates } from "./consent-policy";

// Shopify REST order (webhook payload) → version-2 order body of the reviews service. Pure: every
// input it needs is in the order or in the context, nothing is fetched, nothing throws on odd but
// valid payloads (guests, no e-mail, no line items, null addresses, 250 lines, any script). The
// items are mapped in order.items.ts.

export { deliveryDueAt } from "./order-status";
export type { FulfillmentEvent, FulfillmentEvents } from "./order-status";

export type OrderSettings = ShopSettings["orders"];

export type { ConsentState } from "./consent-policy";

export interface OrderMapContext {
  settings: OrderSettings;
  /** settings.catalog.variantKey: the same key the catalog sends as `variants[]`. */
  variantKeyMode: VariantKeyMode;
  /** From the catalog mirror by product key; undefined = unknown (the caller fetches it later). */
  productData: (productId: string) => ProductData | undefined;
  /**
   * The customer's consent when the caller knows it (the consent store: consent webhooks and the
   * one GraphQL read; or the reconciliation's bulk read). GraphQL values in any case.
   */
  consent?: {
    email?: ConsentState | Uppercase<ConsentState>;
    sms?: ConsentState | Uppercase<ConsentState>;
    whatsapp?: ConsentState | Uppercase<ConsentState>;
  };
  /** Fulfillment events by fulfillment id (legacy id or GID). */
  fulfillmentEvents?: FulfillmentEvents;
  /** For "treat as delivered N days after shipping". */
  now: Date;
}

export type ExclusionReason = "test" | "gift_card_only" | "channel";
export type OrderMapResult = MappedOrder | { excluded: ExclusionReason };

export function isExcluded(result: OrderMapResult): result is { excluded: ExclusionReason } {
  return "excluded" in result;
}

// ---------------------------------------------------------------------------------------------
// Exclusions

/** Why the shop's settings keep this order out of the service, or undefined when it is sent. */
export function exclusionReason(order: ShopifyOrder, settings: OrderSettings): ExclusionReason | undefined {
  const exclude = settings.exclude;
  if (exclude.testOrders && order.test === true) return "test";
  if (exclude.giftCardOnly) {
    const lines = order.line_items ?? [];
    const refunded = refundedQuantities(order);
    // Judged on the lines still in the order; a fully cancelled order is judged on all its lines.
    const live = lines.filter((l) => !isLineCancelled(l, refunded));
    const judged = live.length > 0 ? live : lines;
    if (judged.length > 0 && judged.every((l) => l.gift_card === true)) return "gift_card_only";
  }
  const source = trimmed(order.source_name)?.toLowerCase();
  if (source && exclude.sourceNames.some((s) => s.trim().toLowerCase() === source)) return "channel";
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Buyer

function fullName(first: unknown, last: unknown): string | undefined {
  return trimmed([trimmed(first), trimmed(last)].filter(Boolean).join(" "));
}

/** Customer's name, else the shipping address's, else the billing address's. */
function buyerName(order: ShopifyOrder): string | undefined {
  const c = order.customer;
  const s = order.shipping_address;
  const b = order.billing_address;
  return (
    fullName(c?.first_name, c?.last_name) ??
    fullName(s?.first_name, s?.last_name) ??
    trimmed(s?.name) ??
    fullName(b?.first_name, b?.last_name) ??
    trimmed(b?.name)
  );
}

const EMAIL_RE = /^[^\s@]+@[^\s@]+$/;

/** customer.email, then the order's email, then contact_email; "" and null are absent. */
function buyerEmail(order: ShopifyOrder): string | undefined {
  for (const candidate of [order.customer?.email, order.email, order.contact_email]) {
    const e = typeof candidate === "string" ? candidate.trim() : "";
    if (EMAIL_RE.test(e)) return e;
  }
  return undefined;
}

/**
 * Customer phone, then the order's phone (the checkout's SMS contact), then the shipping and billing
 * address phones. National numbers are completed with the country of the address they came with
 * (for the customer/order phone: shipping, then billing, then the customer's default address). The
 * first number that could be made E.164 wins; failing that, the first usable bare number.
 */
function buyerPhone(order: ShopifyOrder): string | undefined {
  const s = order.shipping_address;
  const b = order.billing_address;
  const country = s?.country_code ?? b?.country_code ?? order.customer?.default_address?.country_code;
  const found = [
    normalizePhone(order.customer?.phone, country),
    normalizePhone(order.phone, country),
    normalizePhone(s?.phone, s?.country_code ?? country),
    normalizePhone(b?.phone, b?.country_code ?? country),
  ].filter((p): p is NormalizedPhone => p !== undefined);
  return (found.find((p) => p.international) ?? found[0])?.value;
}

/** The customer's Shopify id. Never contact data; absent for guest orders (no customer). */
function buyerUserId(order: ShopifyOrder): string | undefined {
  const id = order.customer?.id;
  if (id == null) return undefined;
  const legacy = legacyId(id);
  return /^\d+$/.test(legacy) ? legacy : undefined;
}

// ---------------------------------------------------------------------------------------------
// Opt-outs (the policy itself: mapping/consent-policy.ts)

/**
 * Consent, most authoritative first: the caller's reading (the consent store or the reconciliation's
 * GraphQL read, current), the customer's consent objects of pre-2025-01 payloads, and for e-mail
 * only the checkout's "email me" box (buyer_accepts_marketing) or the legacy
 * customer.accepts_marketing, when true. WhatsApp: only the caller knows it (optOutsFor lets it
 * follow SMS when unknown).
 */
function consentStates(order: ShopifyOrder, ctx: OrderMapContext): ConsentStates {
  const c = order.customer;
  const acceptedEmail = c?.accepts_marketing === true || order.buyer_accepts_marketing === true;
  const states: ConsentStates = {};
  const email =
    consentState(ctx.consent?.email) ??
    consentState(c?.email_marketing_consent?.state) ??
    (acceptedEmail ? "subscribed" : undefined);
  const sms = consentState(ctx.consent?.sms) ?? consentState(c?.sms_marketing_consent?.state);
  const whatsapp = consentState(ctx.consent?.whatsapp);
  if (email) states.email = email;
  if (sms) states.sms = sms;
  if (whatsapp) states.whatsapp = whatsapp;
  return states;
}

// ---------------------------------------------------------------------------------------------
// The order

/** The order's name as the merchant knows it (#1037), or null when the payload has none. */
export function orderName(order: Pick<ShopifyOrder, "name" | "order_number">): string | null {
  return trimmed(order.name) ?? (typeof order.order_number === "number" ? `#${order.order_number}` : null);
}

function orderIdOf(order: ShopifyOrder, source: OrderSettings["orderIdSource"]): string {
  const id = legacyId(order.id) || String(order.id);
  if (source !== "name") return id;
  return orderName(order) ?? id;
}

/**
 * authorizedDate: Shopify's order payload has no transaction times, so any financial status past
 * `pending` (authorized, paid, partially paid/refunded, refunded, voided, expired: all had an
 * authorization once) dates the authorization at processed_at, the time the checkout completed,
 * falling back to created_at. For orders paid later (manual payment, draft orders marked paid) this
 * is the order time, not the payment time: the transactions API would be needed for that.
 */
function authorizedDateOf(order: ShopifyOrder): string | undefined {
  const financial = order.financial_status?.trim().toLowerCase();
  if (!financial || financial === "pending") return undefined;
  return toIsoUtc(order.processed_at) ?? toIsoUtc(order.created_at);
}

/**
 * Maps one order. Returns `{ excluded }` when the shop's settings keep it out of the service.
 * Dates: date-times in ISO 8601 UTC, date fields as YYYY-MM-DD (see order.dates.ts).
 */
export function mapOrder(order: ShopifyOrder, ctx: OrderMapContext): OrderMapResult {
  const excluded = exclusionReason(order, ctx.settings);
  if (excluded) return { excluded };

  const derived = deriveOrderStatus(order, {
    settings: ctx.settings,
    fulfillmentEvents: ctx.fulfillmentEvents,
    now: ctx.now,
  });
  const optOuts = optOutsFor(ctx.settings.optOut, consentStates(order, ctx));

  // Spec order; undefined fields are dropped below so that the body never carries null or "".
  const body: MappedOrder = {
    version: 2,
    orderId: orderIdOf(order, ctx.settings.orderIdSource),
    createdDate: toIsoUtc(order.created_at) ?? toIsoUtc(order.processed_at),
    authorizedDate: authorizedDateOf(order),
    modifiedDate: toIsoUtc(order.updated_at),
    userId: buyerUserId(order),
    name: buyerName(order),
    email: buyerEmail(order),
    phone: buyerPhone(order),
    status: derived.status,
    deliveredDate: derived.status === "delivered" ? derived.deliveredDate : undefined,
    estimatedDeliveryDate: derived.status === "shipped" ? derived.estimatedDeliveryDate : undefined,
    pointOfSale: pointOfSaleOf(order),
    deliveryMethod: deliveryMethodOf(order),
    ...optOuts,
    items: mapItems(order, ctx, derived.status, derived.facts.fulfillments),
  };
  for (const key of Object.keys(body) as (keyof MappedOrder)[]) {
    if (body[key] === undefined) delete body[key];
  }
  return body;
}

/** The payload's updated_at (created_at when absent): compare with what was last applied. */
export function orderUpdatedAt(order: Pick<ShopifyOrder, "updated_at" | "created_at">): Date {
  return parseTime(order.updated_at) ?? parseTime(order.created_at) ?? new Date(0);
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/**
 * sha256 (hex) of the body's canonical JSON (keys sorted, undefined dropped), for "send only when it
 * differs". modifiedDate is left out: Shopify bumps updated_at for changes the service never sees
 * (tags, notes, metafields), and those must not cause a resend.
 */
export function orderFingerprint(mapped: MappedOrder): string {
  const { modifiedDate: _ignored, ...rest } = mapped;
  return createHash("sha256")
    .update(JSON.stringify(canonical(rest)))
    .digest("hex");
}
