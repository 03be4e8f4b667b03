import { z } from "zod";
import { type AdminGraphql, RATE_CHECK_ORDER, RATE_CHECK_ORDER_BY_NAME } from "../../shopify";
import type { ShopOrder } from "./customer-orders";

// What the rating modal shows of Shopify's order: its name, whose it is (is the review kept in the
// logged-in customer's account) and the one product the modal names, read in one query of a few
// points (RATE_CHECK_ORDER). The modal opens for every rating link followed, so neither the order's
// lines nor their pages are read: the product asked is one the service lists on the order.

/** The order as the modal needs it: at most one line, the product asked. */
export type ModalOrder = Pick<ShopOrder, "name" | "customerId" | "lines">;

const productSchema = z
  .looseObject({
    legacyResourceId: z.string(),
    title: z.string(),
    handle: z.string(),
    featuredMedia: z
      .looseObject({
        preview: z.looseObject({ image: z.looseObject({ url: z.string() }).nullish() }).nullish(),
      })
      .nullish(),
  })
  .nullable();

const orderSchema = z.looseObject({
  legacyResourceId: z.string(),
  name: z.string(),
  customer: z.looseObject({ legacyResourceId: z.string() }).nullish(),
});

const byIdSchema = z.object({ order: orderSchema.nullable(), product: productSchema });
const byNameSchema = z.object({ orders: z.looseObject({ nodes: z.array(orderSchema) }), product: productSchema });

/**
 * The order the service holds by `serviceOrderId` (Shopify's numeric id, or its name when the shop
 * sends names), whoever bought it: the caller has proved the right to see it (the service's
 * verification token). Null when Shopify has no such order.
 */
export async function readModalOrder(
  gql: AdminGraphql,
  serviceOrderId: string,
  source: "id" | "name",
  productId: string,
): Promise<ModalOrder | null> {
  const product = `gid://shopify/Product/${productId}`;
  let order: z.infer<typeof orderSchema> | null;
  let found: z.infer<typeof productSchema>;
  if (source === "name") {
    const data = byNameSchema.parse(
      await gql.query(RATE_CHECK_ORDER_BY_NAME, { query: `name:${serviceOrderId}`, product }),
    );
    // Shopify's search is loose: only the order of exactly that name.
    order = data.orders.nodes.find((o) => o.name === serviceOrderId) ?? null;
    found = data.product;
  } else {
    if (!/^\d{1,20}$/.test(serviceOrderId)) return null;
    const data = byIdSchema.parse(
      await gql.query(RATE_CHECK_ORDER, { id: `gid://shopify/Order/${serviceOrderId}`, product }),
    );
    order = data.order;
    found = data.product;
  }
  if (!order) return null;
  return {
    name: order.name,
    customerId: order.customer?.legacyResourceId ?? null,
    lines: found
      ? [
          {
            productId: found.legacyResourceId,
            title: found.title,
            handle: found.handle,
            image: found.featuredMedia?.preview?.image?.url ?? null,
          },
        ]
      : [],
  };
}
