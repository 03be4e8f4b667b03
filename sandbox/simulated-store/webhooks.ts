import { createHmac, randomUUID } from "node:crypto";
import type { ShopifyProductNode } from "./product-generator";
import type { BulkOperationRecord } from "./bulk";

// Webhook deliveries as Shopify makes them: JSON body, base64 HMAC-SHA256 of the raw body with
// the app's client secret, and the X-Shopify-* headers. Used by the store (bulk_operations/finish)
// and by tests and the offline demo to fire products/* deliveries.

const legacy = (gid: string) => Number(gid.slice(gid.lastIndexOf("/") + 1));

/** REST timestamps carry the shop's offset; the store's shop runs on UTC. */
function restTime(iso: string): string {
  return iso.replace(/(\.\d+)?Z$/, "+00:00");
}

/**
 * A GraphQL product node rendered as the products/create|update webhook payload (REST shape,
 * snake_case, numeric ids plus admin_graphql_api_id), as API 2024-10+ sends it.
 */
export function productWebhookPayload(node: ShopifyProductNode): Record<string, unknown> {
  const productId = legacy(node.id);
  const imageUrl = node.featuredMedia?.preview?.image?.url ?? null;
  const imageId = productId + 26_000_000_000_000;
  const image = imageUrl
    ? {
        id: imageId,
        product_id: productId,
        position: 1,
        created_at: restTime(node.createdAt),
        updated_at: restTime(node.updatedAt),
        alt: node.title,
        width: 2048,
        height: 2048,
        src: imageUrl,
        variant_ids: [],
        admin_graphql_api_id: `gid://shopify/ProductImage/${imageId}`,
      }
    : null;
  return {
    admin_graphql_api_id: node.id,
    body_html: node.descriptionHtml,
    created_at: restTime(node.createdAt),
    handle: node.handle,
    id: productId,
    product_type: node.productType,
    published_at: node.status === "ACTIVE" ? restTime(node.createdAt) : null,
    template_suffix: null,
    title: node.title,
    updated_at: restTime(node.updatedAt),
    vendor: node.vendor,
    status: node.status.toLowerCase(),
    published_scope: "global",
    // Shopify sends tags as one string, sorted.
    tags: [...node.tags].sort((a, b) => a.localeCompare(b)).join(", "),
    variants: node.variants.map((v) => {
      const optionValue = (k: number) => v.selectedOptions[k]?.value ?? null;
      const variantId = legacy(v.id);
      return {
        admin_graphql_api_id: v.id,
        barcode: v.barcode,
        compare_at_price: null,
        created_at: restTime(v.createdAt),
        id: variantId,
        inventory_policy: "deny",
        position: v.position,
        price: v.price,
        product_id: productId,
        sku: v.sku,
        taxable: true,
        title: v.title,
        updated_at: restTime(v.updatedAt),
        option1: optionValue(0),
        option2: optionValue(1),
        option3: optionValue(2),
        image_id: null,
        inventory_item_id: variantId + 2_113_489,
        inventory_quantity: v.inventoryQuantity,
        old_inventory_quantity: v.inventoryQuantity,
      };
    }),
    options: node.options.map((o) => ({
      name: o.name,
      id: legacy(o.id),
      product_id: productId,
      position: o.position,
      values: o.values,
    })),
    images: image ? [image] : [],
    image,
    media: image
      ? [
          {
            id: imageId + 1,
            product_id: productId,
            position: 1,
            created_at: image.created_at,
            updated_at: image.updated_at,
            alt: image.alt,
            status: "READY",
            media_content_type: "IMAGE",
            preview_image: { width: 2048, height: 2048, src: imageUrl, status: "READY" },
            variant_ids: [],
            admin_graphql_api_id: `gid://shopify/MediaImage/${imageId + 1}`,
          },
        ]
      : [],
    variant_gids: node.variants.map((v) => ({ admin_graphql_api_id: v.id, updated_at: v.updatedAt })),
    has_variants_that_requires_components: false,
    category: node.category
      ? { admin_graphql_api_id: node.category.id, name: node.category.name, full_name: node.category.fullName }
      : null,
  };
}

/** The products/delete payload. */
export function productDeletePayload(node: Pick<ShopifyProductNode, "id">): Record<string, unknown> {
  return { id: legacy(node.id) };
}

export function signWebhook(rawBody: string, apiSecret: string): string {
  return createHmac("sha256", apiSecret).update(rawBody, "utf8").digest("base64");
}

export interface WebhookDelivery {
  url: string;
  topic: string;
  shop: string;
  apiSecret: string;
  apiVersion: string;
  payload: unknown;
  /** Unique per delivery; a retry of the same delivery reuses it. */
  webhookId?: string;
  /** Shared by every delivery of one merchant action. */
  eventId?: string;
  triggeredAt?: Date;
  fetch?: typeof globalThis.fetch;
}

export interface DeliveryResult {
  status: number;
  webhookId: string;
  eventId: string;
  body: string;
}

/** The headers Shopify sends with a delivery (exported so tests can build Requests directly). */
export function webhookHeaders(d: Omit<WebhookDelivery, "url" | "payload" | "fetch">, rawBody: string) {
  return {
    "Content-Type": "application/json",
    "X-Shopify-Topic": d.topic,
    "X-Shopify-Shop-Domain": d.shop,
    "X-Shopify-Hmac-Sha256": signWebhook(rawBody, d.apiSecret),
    "X-Shopify-Webhook-Id": d.webhookId ?? randomUUID(),
    "X-Shopify-Event-Id": d.eventId ?? randomUUID(),
    "X-Shopify-Triggered-At": (d.triggeredAt ?? new Date()).toISOString(),
    "X-Shopify-API-Version": d.apiVersion,
  };
}

/** POSTs one signed delivery and returns the receiver's answer. */
export async function deliverWebhook(d: WebhookDelivery): Promise<DeliveryResult> {
  const rawBody = JSON.stringify(d.payload);
  const headers = webhookHeaders(d, rawBody);
  const res = await (d.fetch ?? globalThis.fetch)(d.url, { method: "POST", headers, body: rawBody });
  return {
    status: res.status,
    webhookId: headers["X-Shopify-Webhook-Id"],
    eventId: headers["X-Shopify-Event-Id"],
    body: await res.text(),
  };
}

/** The bulk_operations/finish payload Shopify sends when a completed query operation is ready. */
export function bulkOperationFinishPayload(
  op: Pick<BulkOperationRecord, "id" | "completedAt" | "createdAt">,
): Record<string, unknown> {
  return {
    admin_graphql_api_id: op.id,
    completed_at: op.completedAt,
    created_at: op.createdAt,
    error_code: null,
    status: "completed",
    type: "query",
  };
}
