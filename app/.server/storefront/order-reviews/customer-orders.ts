import { z } from "zod";
import { type AdminGraphql, CUSTOMER_ORDER, CUSTOMER_ORDERS, CUSTOMER_ORDER_LINES } from "../../shopify";

// A logged-in customer's orders as Shopify holds them: what the buyer recognises beside each
// order's review status (the number, the date, the products with their titles and images). Read on
// the server with the shop's token; the customer id is the one Shopify signed, never the browser's.
// A page of orders carries each order's first few lines (nested connections multiply a query's
// requested cost, which Shopify caps at 1,000 points); an order with more reads the rest on its own.

/** Orders of one page of the history: the service's find-batch takes at most 20 a call. */
export const ORDERS_PER_PAGE = 20;

export interface ShopOrderLine {
  /** The product's id (the service's SKU for it), null for a deleted product or a custom item. */
  productId: string | null;
  title: string;
  handle: string | null;
  image: string | null;
}

export interface ShopOrder {
  id: string;
  name: string;
  processedAt: string;
  cancelled: boolean;
  /** Every item fulfilled (Shopify's displayFulfillmentStatus FULFILLED): digital goods at once. */
  fulfilled: boolean;
  customerId: string | null;
  lines: ShopOrderLine[];
}

const lineSchema = z.looseObject({
  title: z.string(),
  product: z
    .looseObject({
      legacyResourceId: z.string(),
      handle: z.string(),
      featuredMedia: z
        .looseObject({
          preview: z.looseObject({ image: z.looseObject({ url: z.string() }).nullish() }).nullish(),
        })
        .nullish(),
    })
    .nullish(),
});

const linesSchema = z.looseObject({
  nodes: z.array(lineSchema),
  pageInfo: z.looseObject({ hasNextPage: z.boolean(), endCursor: z.string().nullish() }),
});

const orderSchema = z.looseObject({
  legacyResourceId: z.string(),
  name: z.string(),
  processedAt: z.string(),
  cancelledAt: z.string().nullish(),
  displayFulfillmentStatus: z.string().nullish(),
  customer: z.looseObject({ legacyResourceId: z.string() }).nullish(),
  lineItems: linesSchema,
});

const orderLinesSchema = z.object({ order: z.looseObject({ lineItems: linesSchema }).nullable() });

const ordersSchema = z.object({
  customer: z
    .looseObject({
      orders: z.looseObject({
        nodes: z.array(orderSchema),
        pageInfo: z.looseObject({ hasNextPage: z.boolean(), endCursor: z.string().nullish() }),
      }),
    })
    .nullable(),
});

type Order = z.infer<typeof orderSchema>;
type Line = z.infer<typeof lineSchema>;

/** Every line of an order: the ones its query brought, then the rest a page at a time. */
async function allLines(gql: AdminGraphql, o: Order): Promise<Line[]> {
  const lines = [...o.lineItems.nodes];
  let info = o.lineItems.pageInfo;
  while (info.hasNextPage && info.endCursor) {
    const data = orderLinesSchema.parse(
      await gql.query(CUSTOMER_ORDER_LINES, { id: `gid://shopify/Order/${o.legacyResourceId}`, after: info.endCursor }),
    );
    if (!data.order) break;
    lines.push(...data.order.lineItems.nodes);
    info = data.order.lineItems.pageInfo;
  }
  return lines;
}

async function toShopOrder(gql: AdminGraphql, o: Order): Promise<ShopOrder> {
  return {
    id: o.legacyResourceId,
    name: o.name,
    processedAt: o.processedAt,
    cancelled: !!o.cancelledAt,
    fulfilled: o.displayFulfillmentStatus === "FULFILLED",
    customerId: o.customer?.legacyResourceId ?? null,
    lines: (await allLines(gql, o)).map((l) => ({
      productId: l.product?.legacyResourceId ?? null,
      title: l.title,
      handle: l.product?.handle ?? null,
      image: l.product?.featuredMedia?.preview?.image?.url ?? null,
    })),
  };
}

/** A page of the customer's orders, newest first, and the cursor of the next page (null: none). */
export async function readCustomerOrders(
  gql: AdminGraphql,
  customerId: string,
  page: { after?: string | null; first?: number } = {},
): Promise<{ orders: ShopOrder[]; next: string | null }> {
  const data = ordersSchema.parse(
    await gql.query(CUSTOMER_ORDERS, {
      id: `gid://shopify/Customer/${customerId}`,
      first: page.first ?? ORDERS_PER_PAGE,
      after: page.after ?? null,
    }),
  );
  if (!data.customer) return { orders: [], next: null };
  const { nodes, pageInfo } = data.customer.orders;
  // The Admin client spaces these by the shop's cost bucket.
  const orders = await Promise.all(nodes.map((o) => toShopOrder(gql, o)));
  return { orders, next: pageInfo.hasNextPage ? (pageInfo.endCursor ?? null) : null };
}

/** One order when it is this customer's; null for anyone else's, or none (one answer for both). */
export async function readCustomerOrder(
  gql: AdminGraphql,
  customerId: string,
  orderId: string,
): Promise<ShopOrder | null> {
  const data = z
    .object({ order: orderSchema.nullable() })
    .parse(await gql.query(CUSTOMER_ORDER, { id: `gid://shopify/Order/${orderId}` }));
  return data.order && data.order.customer?.legacyResourceId === customerId ? toShopOrder(gql, data.order) : null;
}
