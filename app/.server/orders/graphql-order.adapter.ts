import {
  legacyId,
  type OrderMapContext,
  type ShopifyFulfillment,
  type ShopifyLineItem,
  type ShopifyOrder,
} from "../mapping";
import { graphqlLineItemSchema, graphqlOrderNodeSchema, type GraphqlLineItemNode } from "./graphql-order.schemas";
import {
  address,
  consentState,
  consentTime,
  lineRefs,
  lower,
  orderFulfillmentStatus,
  restId,
  restTime,
  shipmentStatus,
  utcOffsetOf,
} from "./graphql-to-rest";
import type { OrderTracking } from "./order-tracking";

// A bulk-operation order (GraphQL: camelCase, GIDs, line items as child lines joined by __parentId,
// as readBulkJsonl yields them) → the REST webhook order the order mapper takes. Pure. The point is
// parity with the live path: an order the webhooks already sent must map to the very same body, or
// every reconciliation would send it again. What GraphQL cannot give in a bulk query is completed
// from what the live path recorded (withKnownFulfillmentLines) or inferred where it is unambiguous.
//
// Where the two shapes differ:
// - ids: GIDs → legacy numeric ids (strings when beyond 2^53), `admin_graphql_api_id` kept;
// - timestamps: GraphQL writes UTC, REST the shop's offset, and delivery dates are taken as the
//   calendar day of that offset (order.dates.ts); `utcOffset` rewrites them into the shop's offset;
// - statuses: enums (PAID, PARTIALLY_FULFILLED, IN_TRANSIT) → REST strings (paid, partial, in_transit);
// - a fulfillment's line items: a connection inside a list, which bulk queries refuse (see
//   bulkOrdersQuery); inferred when the order has one active fulfillment;
// - consent: the customer's default e-mail address's and phone number's marketing states go to the
//   mapper's ctx.consent, never into the REST shape (webhooks since 2025-01 carry none).
// The node's schema is in graphql-order.schemas.ts, the value conversions in graphql-to-rest.ts.

/** A bulk line group: the order line and its child lines. */
export interface BulkOrderGroup {
  parent: Record<string, unknown>;
  children: readonly Record<string, unknown>[];
}

export interface AdaptedOrder {
  /** Legacy order id ("5923018211403"). */
  orderId: string;
  order: ShopifyOrder;
  /** For the mapper's ctx.consent; undefined members when GraphQL did not say. With Shopify's times. */
  consent: NonNullable<OrderMapContext["consent"]> & {
    updatedAt: Partial<Record<"email" | "sms" | "whatsapp", Date | null>>;
  };
}

/** The node is not an order we can read (its reason names the field). */
export class OrderNodeError extends Error {
  constructor(
    readonly gid: unknown,
    message: string,
  ) {
    super(`order ${String(gid)}: ${message}`);
    this.name = "OrderNodeError";
  }
}

const isLineItemChild = (c: Record<string, unknown>) =>
  typeof c.id === "string" ? /^gid:\/\/shopify\/LineItem\//.test(c.id) : "quantity" in c;

// ---------------------------------------------------------------------------------------------
// Line items and fulfillments

function lineItem(node: GraphqlLineItemNode): ShopifyLineItem {
  const quantity = node.quantity ?? null;
  const current = node.currentQuantity ?? quantity;
  const unfulfilled = node.unfulfilledQuantity ?? null;
  // REST: "fulfilled" once nothing is left to fulfil of what was fulfilled, "partial" in between,
  // null when nothing was fulfilled (removed or refunded units are neither).
  const fulfilled = current !== null && unfulfilled !== null ? Math.max(0, current - unfulfilled) : null;
  const fulfillmentStatus = fulfilled ? (unfulfilled === 0 ? "fulfilled" : "partial") : null;
  return {
    id: restId(node.id),
    admin_graphql_api_id: node.id,
    product_id: node.product ? restId(node.product.id) : null,
    variant_id: node.variant ? restId(node.variant.id) : null,
    sku: node.sku ?? node.variant?.sku ?? null,
    name: node.name ?? null,
    title: node.title ?? null,
    variant_title: node.variantTitle ?? null,
    vendor: node.vendor ?? null,
    quantity,
    current_quantity: current,
    fulfillable_quantity: unfulfilled,
    fulfillment_status: fulfillmentStatus,
    requires_shipping: node.requiresShipping ?? null,
    gift_card: node.isGiftCard ?? null,
    product_exists: node.product != null,
    properties: (node.customAttributes ?? []).map((a) => ({ name: a.key, value: a.value ?? null })),
  };
}

const INACTIVE_FULFILLMENT = new Set(["cancelled", "error", "failure"]);
const isActive = (f: ShopifyFulfillment) => !INACTIVE_FULFILLMENT.has(lower(f.status) ?? "");

/** Units of a line that went out: what is left of it minus what is still to fulfil. */
function fulfilledUnits(line: ShopifyLineItem): number {
  const current = line.current_quantity ?? line.quantity;
  if (typeof current !== "number" || typeof line.fulfillable_quantity !== "number") return 0;
  return Math.max(0, current - line.fulfillable_quantity);
}

/**
 * With one active fulfillment, every line with fulfilled units went in it. With several, which
 * line went in which is unknown (their states may differ): left without line items, the mapper
 * then gives every fulfilled line the order's shipment state, until withKnownFulfillmentLines
 * or a webhook tells.
 */
function inferFulfillmentLines(fulfillments: ShopifyFulfillment[], lines: ShopifyLineItem[]): ShopifyFulfillment[] {
  const active = fulfillments.filter(isActive);
  if (active.length !== 1 || active[0]!.line_items) return fulfillments;
  const only = active[0]!;
  const items = lines.filter((l) => fulfilledUnits(l) > 0).map((l) => ({ id: l.id, quantity: fulfilledUnits(l) }));
  return fulfillments.map((f) => (f === only ? { ...f, line_items: items } : f));
}

// ---------------------------------------------------------------------------------------------
// The order

export interface AdaptOptions {
  /** The shop's UTC offset ("-08:00"): timestamps are written in it, as webhooks write them. */
  utcOffset?: string;
}

/** One bulk order group → the REST order and the customer's consent. Throws OrderNodeError. */
export function adaptBulkOrder(group: BulkOrderGroup, options: AdaptOptions = {}): AdaptedOrder {
  const parsed = graphqlOrderNodeSchema.safeParse(group.parent);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new OrderNodeError(group.parent?.id, `${issue?.path.join(".") ?? ""} ${issue?.message ?? ""}`.trim());
  }
  const node = parsed.data;
  const time = (iso: string | null | undefined) => restTime(iso, options.utcOffset);

  const lines: ShopifyLineItem[] = [];
  for (const child of group.children) {
    if (child.__parentId !== node.id || !isLineItemChild(child)) continue;
    const line = graphqlLineItemSchema.safeParse(child);
    if (!line.success)
      throw new OrderNodeError(
        node.id,
        `line item ${String(child.id)}: ${line.error.issues[0]?.message ?? "unreadable"}`,
      );
    lines.push(lineItem(line.data));
  }

  const fulfillments: ShopifyFulfillment[] = (node.fulfillments ?? []).map((f) => {
    const tracking = f.trackingInfo?.[0];
    const out: ShopifyFulfillment = {
      id: restId(f.id),
      admin_graphql_api_id: f.id,
      status: lower(f.status),
      shipment_status: shipmentStatus(f),
      created_at: time(f.createdAt),
      updated_at: time(f.updatedAt),
      estimated_delivery_at: time(f.estimatedDeliveryAt),
      tracking_company: tracking?.company ?? null,
      tracking_number: tracking?.number ?? null,
    };
    const items = lineRefs(f.fulfillmentLineItems);
    if (items) out.line_items = items;
    return out;
  });

  const refunds = node.refunds?.map((r) => ({
    id: r.id ? restId(r.id) : null,
    created_at: time(r.createdAt),
    refund_line_items: (lineRefs(r.refundLineItems) ?? []).map((li) => ({
      line_item_id: li.id,
      quantity: li.quantity,
    })),
  }));

  const c = node.customer;
  const customer = c
    ? {
        id: restId(c.id),
        admin_graphql_api_id: c.id,
        first_name: c.firstName ?? null,
        last_name: c.lastName ?? null,
        email: c.defaultEmailAddress?.emailAddress ?? c.email ?? null,
        phone: c.defaultPhoneNumber?.phoneNumber ?? c.phone ?? null,
        default_address: c.defaultAddress
          ? { country_code: c.defaultAddress.countryCodeV2 ?? c.defaultAddress.countryCode ?? null }
          : null,
      }
    : null;

  const s = node.shippingLine;
  const numberMatch = /^#?(\d+)$/.exec(node.name?.trim() ?? "");
  const order: ShopifyOrder = {
    id: restId(node.id),
    admin_graphql_api_id: node.id,
    name: node.name ?? null,
    ...(numberMatch ? { order_number: Number(numberMatch[1]) } : {}),
    email: node.email ?? null,
    phone: node.phone ?? null,
    created_at: time(node.createdAt),
    updated_at: time(node.updatedAt),
    processed_at: time(node.processedAt),
    cancelled_at: time(node.cancelledAt),
    closed_at: time(node.closedAt),
    financial_status: lower(node.displayFinancialStatus),
    fulfillment_status: orderFulfillmentStatus(node.displayFulfillmentStatus),
    test: node.test ?? false,
    source_name: node.sourceName ?? null,
    buyer_accepts_marketing: node.customerAcceptsMarketing ?? null,
    customer,
    shipping_address: address(node.shippingAddress),
    billing_address: address(node.billingAddress),
    line_items: lines,
    fulfillments: inferFulfillmentLines(fulfillments, lines),
    ...(refunds ? { refunds } : {}),
    shipping_lines: s
      ? [
          {
            code: s.code ?? null,
            title: s.title ?? null,
            source: s.source ?? null,
            carrier_identifier: s.carrierIdentifier ?? null,
            delivery_category: s.deliveryCategory ?? null,
          },
        ]
      : [],
  };

  return {
    orderId: legacyId(node.id),
    order,
    consent: {
      email: consentState(c?.defaultEmailAddress?.marketingState),
      sms: consentState(c?.defaultPhoneNumber?.smsMarketingConsent?.state),
      ...(c?.defaultPhoneNumber?.whatsAppMarketingConsent
        ? { whatsapp: consentState(c.defaultPhoneNumber.whatsAppMarketingConsent.state) }
        : {}),
      updatedAt: {
        email: consentTime(c?.defaultEmailAddress?.marketingUpdatedAt),
        sms: consentTime(c?.defaultPhoneNumber?.smsMarketingConsent?.updatedAt),
        whatsapp: consentTime(c?.defaultPhoneNumber?.whatsAppMarketingConsent?.updatedAt),
      },
    },
  };
}

// ---------------------------------------------------------------------------------------------
// What the live path already knows

/**
 * Fills in the line items of fulfillments from what the order's webhooks recorded (a fulfillment's
 * lines never change once it exists): the last order payload applied and the fulfillments/*
 * webhooks since. Known lines replace inferred ones.
 */
export function withKnownFulfillmentLines(
  order: ShopifyOrder,
  tracking: Pick<OrderTracking, "fulfillments" | "order">,
): ShopifyOrder {
  if (!order.fulfillments?.length) return order;
  const known = new Map<string, ShopifyFulfillment["line_items"]>();
  for (const f of tracking.order?.fulfillments ?? []) if (f.line_items?.length) known.set(legacyId(f.id), f.line_items);
  for (const f of Object.values(tracking.fulfillments))
    if (f.line_items?.length) known.set(legacyId(f.id), f.line_items);
  if (!known.size) return order;
  return {
    ...order,
    fulfillments: order.fulfillments.map((f) => {
      const lines = known.get(legacyId(f.id));
      return lines ? { ...f, line_items: lines } : f;
    }),
  };
}

/** The shop offset the order's webhooks were written in, if one was applied. */
export function trackedUtcOffset(tracking: Pick<OrderTracking, "order">): string | undefined {
  return utcOffsetOf(tracking.order?.updated_at) ?? utcOffsetOf(tracking.order?.created_at);
}
