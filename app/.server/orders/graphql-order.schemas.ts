import { z } from "zod";

// The GraphQL order node the bulk read and the paged read hand the adapter
// (graphql-order.adapter.ts), as zod reads it: loose objects, every field nullish but the ids.

const str = z.string().nullish();
const num = z.number().nullish();
const bool = z.boolean().nullish();
const gidRef = z.looseObject({ id: z.string() }).nullish();

export const graphqlAddressSchema = z
  .looseObject({ firstName: str, lastName: str, name: str, phone: str, countryCodeV2: str, countryCode: str })
  .nullish();

export const graphqlFulfillmentSchema = z.looseObject({
  id: z.string(),
  status: str,
  displayStatus: str,
  createdAt: str,
  updatedAt: str,
  inTransitAt: str,
  deliveredAt: str,
  estimatedDeliveryAt: str,
  trackingInfo: z.array(z.looseObject({ company: str, number: str, url: str })).nullish(),
  // Present only when the node came from a regular (non-bulk) query.
  fulfillmentLineItems: z.unknown().optional(),
});

export const graphqlRefundSchema = z.looseObject({ id: str, createdAt: str, refundLineItems: z.unknown().optional() });

export const graphqlOrderNodeSchema = z.looseObject({
  id: z.string().regex(/^gid:\/\/shopify\/Order\/\d+$/, "an Order GID"),
  name: str,
  createdAt: str,
  updatedAt: str,
  processedAt: str,
  cancelledAt: str,
  closedAt: str,
  test: bool,
  sourceName: str,
  email: str,
  phone: str,
  customerAcceptsMarketing: bool,
  displayFinancialStatus: str,
  displayFulfillmentStatus: str,
  customer: z
    .looseObject({
      id: z.string(),
      firstName: str,
      lastName: str,
      email: str,
      phone: str,
      defaultEmailAddress: z.looseObject({ emailAddress: str, marketingState: str, marketingUpdatedAt: str }).nullish(),
      defaultPhoneNumber: z
        .looseObject({
          phoneNumber: str,
          smsMarketingConsent: z.looseObject({ state: str, updatedAt: str }).nullish(),
          whatsAppMarketingConsent: z.looseObject({ state: str, updatedAt: str }).nullish(),
        })
        .nullish(),
      defaultAddress: graphqlAddressSchema,
    })
    .nullish(),
  shippingAddress: graphqlAddressSchema,
  billingAddress: graphqlAddressSchema,
  shippingLine: z
    .looseObject({ code: str, title: str, source: str, carrierIdentifier: str, deliveryCategory: str })
    .nullish(),
  fulfillments: z.array(graphqlFulfillmentSchema).nullish(),
  refunds: z.array(graphqlRefundSchema).nullish(),
});

export const graphqlLineItemSchema = z.looseObject({
  id: z.string(),
  sku: str,
  name: str,
  title: str,
  variantTitle: str,
  vendor: str,
  quantity: num,
  currentQuantity: num,
  unfulfilledQuantity: num,
  isGiftCard: bool,
  requiresShipping: bool,
  customAttributes: z.array(z.looseObject({ key: z.string(), value: str })).nullish(),
  product: gidRef,
  variant: z.looseObject({ id: z.string(), sku: str }).nullish(),
});

export type GraphqlOrderNode = z.infer<typeof graphqlOrderNodeSchema>;
export type GraphqlLineItemNode = z.infer<typeof graphqlLineItemSchema>;
export type GraphqlAddress = z.infer<typeof graphqlAddressSchema>;
export type GraphqlFulfillment = z.infer<typeof graphqlFulfillmentSchema>;

/** A fulfillment's or a refund's reference to a line item. */
export const lineRefSchema = z.looseObject({ lineItem: gidRef, quantity: num });
