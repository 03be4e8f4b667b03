import type { Logger } from "pino";
import { ReviewsError, ReviewsPermanentError, type ReviewsStorefrontApi } from "../../reviews";
import type { AdminGraphql } from "../../shopify";
import type { ShopSettings } from "../../settings";
import { ShopNotConnectedError, ShopNotFoundError } from "../../shops";
import { CustomerWithoutEmailError, type CustomerIdentity } from "../shopper/customer-identity";
import { OrderNotFoundError, verifyGuestOrder } from "../shopper/guest-order";
import type { ShopperFields } from "./shopper-fields";
import { json } from "./write-request.server";

// Who writes (a review, a question), decided the same way for every form: the signed customer; a
// guest who proved an order (its number and e-mail, checked at the service); a guest with an
// e-mail alone, only when the merchant allows it. Anything the browser says about a logged-in
// shopper's identity is ignored. A shopper who cannot be identified gets the answer the form
// translates (403 log in, 422 order not found, 503 try later), as a Response.

export type Writer =
  | { kind: "customer"; customerId: string; userId: string; email: string }
  | { kind: "order"; orderId: string; verificationTokenId: string; email: string }
  | { kind: "link"; orderId: string; verificationTokenId: string }
  | { kind: "guest"; email: string; name?: string };

export interface WriterDeps {
  customerIdentity(shop: string, customerId: string): Promise<CustomerIdentity>;
  adminFor(shop: string): Promise<AdminGraphql>;
  settingsOf(shop: string): Promise<ShopSettings>;
  log: Logger;
}

export async function identifyWriter(
  deps: WriterDeps,
  at: {
    shop: string;
    sku: string;
    customerId: string;
    client: Pick<ReviewsStorefrontApi, "findOrder" | "getOrderReviewStatus">;
    what?: "review" | "question";
  },
  fields: ShopperFields,
): Promise<Writer | Response> {
  const { shop, customerId, client } = at;
  try {
    // A review link names the order and carries its token: it is checked with the service (this
    // product in that order, not reviewed yet) and wins over the session, as the buyer of that
    // order is who the link was sent to.
    if (fields.link) {
      const status = await client
        .getOrderReviewStatus(fields.link.verificationTokenId, fields.link.orderId)
        .catch((e: unknown) => {
          if (e instanceof ReviewsPermanentError) return null;
          throw e;
        });
      const item = status?.products.find((p) => p.sku === at.sku);
      if (!item) return json(422, { errors: { link: "link_invalid" } });
      if (!item.active)
        return json(409, {
          error: "already_reviewed",
          ...(typeof item.review?.rating === "number"
            ? {
                review: {
                  rating: item.review.rating,
                  text: item.review.text ?? undefined,
                  created: item.review.created ?? undefined,
                },
              }
            : {}),
        });
      return { kind: "link", ...fields.link };
    }
    if (customerId) {
      const who = await deps.customerIdentity(shop, customerId);
      return { kind: "customer", customerId, userId: who.userId, email: who.email };
    }
    if (fields.order) {
      const settings = await deps.settingsOf(shop);
      const order = await verifyGuestOrder(
        { client, admin: () => deps.adminFor(shop), orderIdSource: settings.orders.orderIdSource },
        { orderNumber: fields.order.number, email: fields.order.email },
      );
      return { kind: "order", ...order, email: fields.order.email };
    }
    if (fields.guestEmail) {
      const { storefront } = await deps.settingsOf(shop);
      // Each kind of writing has the merchant's own switch for guests.
      if (at.what === "question" ? storefront.guestQuestions : storefront.guestReviews)
        return { kind: "guest", email: fields.guestEmail, ...(fields.guestName ? { name: fields.guestName } : {}) };
    }
    return json(403, { error: "login_required" });
  } catch (error) {
    if (error instanceof OrderNotFoundError) return json(422, { errors: { orderNumber: "order_not_found" } });
    if (error instanceof CustomerWithoutEmailError) return json(403, { error: "no_email" });
    if (error instanceof ShopNotConnectedError || error instanceof ShopNotFoundError)
      return json(503, { error: "unavailable" });
    deps.log.warn(
      { shop, err: error instanceof ReviewsError ? error.toJSON() : (error as Error).message },
      "app proxy: shopper not identified",
    );
    return json(503, { error: "unavailable" }, { "Retry-After": "30" });
  }
}

/** The service's `userId` + `email` for a writer: a guest's e-mail is the only identity there is. */
export function serviceUser(writer: Exclude<Writer, { kind: "link" }>): { userId: string; email: string } {
  if (writer.kind === "customer") return { userId: writer.userId, email: writer.email };
  return { userId: `guest:${writer.email.toLowerCase()}`, email: writer.email };
}
