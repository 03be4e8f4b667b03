import { ReviewsError } from "../../reviews";
import { customerPurchase } from "../shopper/customer-purchase";
import type { Writer } from "./writer-identity";
import type { ReviewWriteDeps, ServiceClient } from "./write-request.server";

// How a logged-in customer's review from the product page goes to the service: one buyer, one
// review per product. Reviewed before (the app's memory, or every order of theirs holding the
// product reviewed at the service): refused. An order of theirs still open for it: sent with that
// order's verification token, so the service ties it to the order and marks it a verified purchase
// (the Client API's second way to identify a reviewer). Neither: sent as the customer.
// When Shopify or the service cannot say, the review goes as the customer: a shopper's words are
// never lost for want of a check.

export type CustomerReviewAs =
  { kind: "reviewed" } | { kind: "order"; orderId: string; verificationTokenId: string } | { kind: "customer" };

export async function customerReviewAs(
  deps: Pick<ReviewWriteDeps, "reviewed" | "purchases" | "adminFor" | "settingsOf" | "log">,
  at: { shop: string; sku: string; client: ServiceClient },
  writer: Extract<Writer, { kind: "customer" }>,
): Promise<CustomerReviewAs> {
  const { shop, sku, client } = at;
  if (await deps.reviewed.has(shop, writer.customerId, sku)) return { kind: "reviewed" };
  try {
    const settings = await deps.settingsOf(shop);
    const purchase = await customerPurchase(
      {
        gql: () => deps.adminFor(shop),
        client,
        orderIdSource: settings.orders.orderIdSource,
        purchases: deps.purchases,
        shop,
      },
      { customerId: writer.customerId, userId: writer.userId, email: writer.email },
      sku,
    );
    if (purchase.kind === "reviewed") {
      await deps.reviewed.add(shop, writer.customerId, [sku]);
      return { kind: "reviewed" };
    }
    if (purchase.kind === "open")
      return { kind: "order", orderId: purchase.orderId, verificationTokenId: purchase.verificationTokenId };
  } catch (error) {
    deps.log.warn(
      { shop, sku, err: error instanceof ReviewsError ? error.toJSON() : (error as Error).message },
      "app proxy: customer's orders not checked; the review goes as the customer",
    );
  }
  return { kind: "customer" };
}
