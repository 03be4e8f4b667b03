import { readFileSync } from "node:fs";
import { orderPayload } from "../helpers/order-payloads";

// Webhook payloads for the fault drills, built from the real-shaped fixtures: products re-keyed from
// the tee, orders re-keyed from the paid web order (test/helpers/order-payloads.ts), each with its
// own id and updated_at so that "newest wins" can be checked.

export type Json = Record<string, unknown>;

const fixture = (path: string): Json => JSON.parse(readFileSync(path, "utf8")) as Json;
const tee = fixture("test/fixtures/products/apparel-tee.products-update.json");

/** The product and variant the order fixture's one line names. */
export const RUNNER = { product: 8712345677899, variant: 45012345678923, sku: "TR2-BLU-42" };

/** products/create or products/update of another product (the tee's shape, own id and title). */
export function product(id: number, title: string): Json {
  return {
    ...structuredClone(tee),
    id,
    admin_graphql_api_id: `gid://shopify/Product/${id}`,
    title,
    handle: `product-${id}`,
  };
}

/** The product the order fixture names, so that orders find it in the catalog mirror. */
export function runnerProduct(): Json {
  const v = (tee.variants as Json[])[0]!;
  return {
    ...product(RUNNER.product, "Trail Runner 2"),
    handle: "trail-runner-2",
    variants: [
      {
        ...v,
        id: RUNNER.variant,
        product_id: RUNNER.product,
        sku: RUNNER.sku,
        admin_graphql_api_id: `gid://shopify/ProductVariant/${RUNNER.variant}`,
      },
    ],
    variant_gids: [
      { admin_graphql_api_id: `gid://shopify/ProductVariant/${RUNNER.variant}`, updated_at: tee.updated_at },
    ],
  };
}

/** An order of the shop as orders/create or orders/updated delivers it. */
export function order(id: number, updatedAt: string, patch: Json = {}): Json {
  return orderPayload(id, { updated_at: updatedAt, ...patch });
}

/** The order with its one line shipped by one fulfillment, as orders/fulfilled delivers it. */
export function fulfilledOrder(id: number, updatedAt: string, fulfillmentId: number): Json {
  const base = order(id, updatedAt);
  const lines: Json[] = (base.line_items as Json[]).map((l) => ({
    ...l,
    fulfillable_quantity: 0,
    fulfillment_status: "fulfilled",
  }));
  const fulfillment = {
    id: fulfillmentId,
    admin_graphql_api_id: `gid://shopify/Fulfillment/${fulfillmentId}`,
    order_id: id,
    status: "success",
    created_at: updatedAt,
    updated_at: updatedAt,
    service: "manual",
    shipment_status: null,
    location_id: 71234567890,
    name: `${String(base.name)}.1`,
    tracking_company: "UPS",
    tracking_number: "1Z999AA10123456784",
    tracking_numbers: ["1Z999AA10123456784"],
    tracking_url: "https://www.ups.com/track?tracknum=1Z999AA10123456784",
    tracking_urls: ["https://www.ups.com/track?tracknum=1Z999AA10123456784"],
    line_items: lines.map((l) => ({
      id: l.id,
      quantity: l.quantity,
      product_id: l.product_id,
      variant_id: l.variant_id,
      sku: l.sku,
      fulfillment_status: "fulfilled",
      fulfillable_quantity: 0,
    })),
  };
  return { ...base, fulfillment_status: "fulfilled", line_items: lines, fulfillments: [fulfillment] };
}
