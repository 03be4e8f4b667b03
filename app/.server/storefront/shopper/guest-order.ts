import { z } from "zod";
import { ReviewsPermanentError, type ReviewsStorefrontApi } from "../../reviews";
import { type AdminGraphql, ORDER_BY_NAME } from "../../shopify";

// A guest proves a purchase with the order number they see ("#1001") and the e-mail of the order.
// The number is turned into the order id the service holds (the order sync's `orderIdSource`),
// then the service's `orders/find` checks that the order is that e-mail's and answers the
// verification token the review is sent with (a verified purchase).

export interface VerifiedOrder {
  orderId: string;
  verificationTokenId: string;
}

/** No such order for that e-mail: one answer for both, so nobody learns which orders exist. */
export class OrderNotFoundError extends Error {
  constructor() {
    super("no order with that number for that e-mail");
    this.name = "OrderNotFoundError";
  }
}

/** "#1001", "1001" or " # 1001 " → "#1001"; null when it is not an order number. */
export function normalOrderNumber(input: string): string | null {
  const digits = /^#?\s*(\d{1,12})$/.exec(input.trim())?.[1];
  return digits ? `#${digits}` : null;
}

const ordersSchema = z.object({
  orders: z.object({ nodes: z.array(z.looseObject({ legacyResourceId: z.string(), name: z.string() })) }),
});

export async function verifyGuestOrder(
  deps: {
    client: Pick<ReviewsStorefrontApi, "findOrder">;
    admin: () => Promise<AdminGraphql>;
    orderIdSource: "id" | "name";
  },
  input: { orderNumber: string; email: string },
): Promise<VerifiedOrder> {
  const name = normalOrderNumber(input.orderNumber);
  if (!name) throw new OrderNotFoundError();
  let orderId = name;
  if (deps.orderIdSource === "id") {
    const gql = await deps.admin();
    const found = ordersSchema
      .parse(await gql.query(ORDER_BY_NAME, { query: `name:${name}` }))
      .orders.nodes.find((o) => o.name === name);
    if (!found) throw new OrderNotFoundError();
    orderId = found.legacyResourceId;
  }
  try {
    const r = await deps.client.findOrder({ orderId, email: input.email.trim() });
    return { orderId: r.orderId || orderId, verificationTokenId: r.verificationTokenId };
  } catch (e) {
    if (e instanceof ReviewsPermanentError && e.reason === "not_found") throw new OrderNotFoundError();
    throw e;
  }
}
