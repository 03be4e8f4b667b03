import { z } from "zod";
import { orderItemV2Schema, orderStatusV2Schema, orderV2Schema, productDataSchema } from "../reviews";

// Both edges of the order mapper: the Shopify REST order as webhooks deliver it (input), and the
// version-2 order body of the reviews service (output; "Admin API of the reviews service", docs/reviews-service.md).

// ---------------------------------------------------------------------------------------------
// Input: REST webhook order (orders/create|updated|paid|cancelled|fulfilled|partially_fulfilled)
//
// Lenient on purpose: a subscription may use `include_fields`, older API versions carry fields that
// newer ones dropped, and Shopify adds fields freely. Only `id` is required; everything the mapper
// reads is optional and nullable, unknown fields pass through untouched.

const shopifyId = z.union([z.number(), z.string().min(1)]);
const str = z.string().nullish();
const num = z.number().nullish();
const bool = z.boolean().nullish();

export const shopifyAddressSchema = z.looseObject({
  first_name: str,
  last_name: str,
  name: str,
  phone: str,
  country_code: str,
});

const marketingConsentSchema = z.looseObject({
  state: str,
  opt_in_level: str,
  consent_updated_at: str,
});

export const shopifyCustomerSchema = z.looseObject({
  id: shopifyId,
  first_name: str,
  last_name: str,
  email: str,
  phone: str,
  state: str,
  default_address: shopifyAddressSchema.nullish(),
  // Gone from webhook payloads since API 2025-01; older payloads (and replays of them) still carry them.
  email_marketing_consent: marketingConsentSchema.nullish(),
  sms_marketing_consent: marketingConsentSchema.nullish(),
  accepts_marketing: bool,
});

export const shopifyLineItemSchema = z.looseObject({
  id: shopifyId,
  product_id: shopifyId.nullish(),
  variant_id: shopifyId.nullish(),
  sku: str,
  title: str,
  name: str,
  variant_title: str,
  vendor: str,
  quantity: num,
  current_quantity: num,
  fulfillable_quantity: num,
  fulfillment_status: str,
  requires_shipping: bool,
  gift_card: bool,
  product_exists: bool,
  properties: z
    .array(
      z.looseObject({
        name: z.string().nullish(),
        value: z.union([z.string(), z.number(), z.boolean()]).nullish(),
      }),
    )
    .nullish(),
});

export const shopifyFulfillmentSchema = z.looseObject({
  id: shopifyId,
  status: str,
  shipment_status: str,
  created_at: str,
  updated_at: str,
  estimated_delivery_at: str,
  tracking_company: str,
  line_items: z.array(z.looseObject({ id: shopifyId, quantity: num })).nullish(),
});

export const shopifyRefundSchema = z.looseObject({
  id: shopifyId.nullish(),
  created_at: str,
  refund_line_items: z.array(z.looseObject({ line_item_id: shopifyId.nullish(), quantity: num })).nullish(),
});

export const shopifyShippingLineSchema = z.looseObject({
  code: str,
  title: str,
  source: str,
  carrier_identifier: str,
  delivery_category: str,
});

export const shopifyOrderSchema = z.looseObject({
  id: shopifyId,
  admin_graphql_api_id: str,
  name: str,
  order_number: num,
  email: str,
  contact_email: str,
  phone: str,
  created_at: str,
  updated_at: str,
  processed_at: str,
  cancelled_at: str,
  cancel_reason: str,
  closed_at: str,
  financial_status: str,
  fulfillment_status: str,
  test: bool,
  source_name: str,
  buyer_accepts_marketing: bool,
  customer: shopifyCustomerSchema.nullish(),
  shipping_address: shopifyAddressSchema.nullish(),
  billing_address: shopifyAddressSchema.nullish(),
  line_items: z.array(shopifyLineItemSchema).nullish(),
  fulfillments: z.array(shopifyFulfillmentSchema).nullish(),
  refunds: z.array(shopifyRefundSchema).nullish(),
  shipping_lines: z.array(shopifyShippingLineSchema).nullish(),
});

export type ShopifyOrder = z.infer<typeof shopifyOrderSchema>;
export type ShopifyLineItem = z.infer<typeof shopifyLineItemSchema>;
export type ShopifyFulfillment = z.infer<typeof shopifyFulfillmentSchema>;
export type ShopifyAddress = z.infer<typeof shopifyAddressSchema>;

// ---------------------------------------------------------------------------------------------
// Output: Order (input, version 2) of the reviews service
//
// The client's schema (reviews/admin.schemas.ts, orderV2Schema), refined: stricter than the spec's
// own words where the spec is silent, so that a mapper bug shows up in our tests and not as a
// silently ignored field: no nulls, no empty strings, date-times in ISO 8601 UTC (the form the
// service answers with), dates as YYYY-MM-DD, item statuses from the service's list.

const text = z.string().min(1);
const dateTime = z.iso.datetime();
const date = z.iso.date();

/** Expanded product data of an order item (spec: `productData`). All optional; empty values are omitted. */
export const orderProductDataSchema = productDataSchema.extend({
  name: text.optional(),
  productName: text.optional(),
  brand: text.optional(),
  brandName: text.optional(),
  mpn: text.optional(),
  ean: text.optional(),
  gtin: text.optional(),
  url: text.optional(),
  image: text.optional(),
  categories: z.array(text).optional(),
  categoryName: text.optional(),
});
export type OrderItemProductData = z.infer<typeof orderProductDataSchema>;

export const mappedOrderItemSchema = orderItemV2Schema.extend({
  productId: text,
  sku: text.optional(),
  skuName: text.optional(),
  status: orderStatusV2Schema.optional(),
  cancelled: z.boolean().optional(),
  sellerInfo: z.strictObject({ id: text, name: text }).optional(),
  productData: orderProductDataSchema.optional(),
});
export type MappedOrderItem = z.infer<typeof mappedOrderItemSchema>;

export const mappedOrderSchema = orderV2Schema.extend({
  version: z.literal(2),
  orderId: text,
  createdDate: dateTime.optional(),
  authorizedDate: dateTime.optional(),
  modifiedDate: dateTime.optional(),
  userId: z.string().regex(/^\d+$/, "a Shopify customer id, never contact data").optional(),
  name: text.optional(),
  email: z
    .string()
    .regex(/^[^\s@]+@[^\s@]+$/)
    .optional(),
  // E.164, or bare digits when no country could be determined (see phone.ts).
  phone: z
    .string()
    .regex(/^(\+[1-9]\d{6,14}|\d{7,15})$/)
    .optional(),
  status: orderStatusV2Schema,
  deliveredDate: date.optional(),
  estimatedDeliveryDate: date.optional(),
  pointOfSale: text.optional(),
  deliveryMethod: text.optional(),
  optOutEmail: z.boolean(),
  optOutSMS: z.boolean(),
  optOutWhatsApp: z.boolean(),
  items: z.array(mappedOrderItemSchema),
});
export type MappedOrder = z.infer<typeof mappedOrderSchema>;
