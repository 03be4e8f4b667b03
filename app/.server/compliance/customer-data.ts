import { z } from "zod";
import { GiveUp, type JobServices, type TopicDelivery } from "../jobs";
import { createFlowTriggerUse } from "../flow";
import { createCustomerReviewIndex } from "../customers";
import { createBackSyncState } from "../backsync";
import { createConsentRepository } from "../consent";

// Shopify's mandatory compliance webhooks. This app keeps no buyer contact data of its own: per
// order only ids, statuses, times and a fingerprint (OrderState); per customer the marketing
// consent states and their times (CustomerConsent); per customer the ids of their reviews
// (CustomerReview, for the customer details block). The reviews service keeps the
// orders' buyer name, e-mail and phone; the spec has no deletion endpoint, so the merchant must ask
// the service to export or erase there (README, "Customer data").

const id = z.union([z.string(), z.number()]).transform(String);
const customerPayload = z.looseObject({
  customer: z.looseObject({ id: id.nullish() }).nullish(),
  orders_requested: z.array(id).nullish(),
  orders_to_redact: z.array(id).nullish(),
  data_request: z.looseObject({ id: id.nullish() }).nullish(),
});

/** What the compliance use cases are given: the database, the shops and the staged changes. */
export type ComplianceDeps = Pick<JobServices, "db" | "shops" | "pending">;

export const SERVICE_NOTE =
  "The reviews service holds the buyer's name, e-mail and phone sent with these orders, and any reviews written; ask the service to export or erase them (it has no API for it).";

async function customerOrders(ctx: ComplianceDeps, shopDomain: string, customerId: string | null, orderIds: string[]) {
  const shop = await ctx.shops.find(shopDomain);
  if (!shop) return { shopId: null, rows: [] };
  const or = [...(customerId ? [{ customerId }] : []), ...(orderIds.length ? [{ orderId: { in: orderIds } }] : [])];
  if (!or.length) return { shopId: shop.id, rows: [] };
  const rows = await ctx.db.orderState.findMany({ where: { shopId: shop.id, OR: or } });
  return { shopId: shop.id, rows };
}

export async function customersDataRequest(ctx: ComplianceDeps, delivery: TopicDelivery): Promise<void> {
  const parsed = customerPayload.safeParse(delivery.payload);
  if (!parsed.success) throw new GiveUp("customers/data_request payload unusable");
  const customerId = parsed.data.customer?.id ?? null;
  const { shopId, rows } = await customerOrders(ctx, delivery.shop, customerId, parsed.data.orders_requested ?? []);
  const consent = shopId && customerId ? await createConsentRepository(ctx.db).get(shopId, customerId) : null;
  const reviews =
    shopId && customerId
      ? (await createCustomerReviewIndex(ctx.db).page(shopId, customerId, { offset: 0, limit: 10_000 })).rows
      : [];
  const record = {
    requestId: parsed.data.data_request?.id ?? null,
    customerId,
    storedByThisApp: rows.map((r) => ({
      orderId: r.orderId,
      statusSentToService: r.status,
      lastSentAt: r.sentAt?.toISOString() ?? null,
      orderUpdatedAt: r.sentUpdatedAt?.toISOString() ?? null,
    })),
    // Consent states and Shopify's times per channel, as the consent webhooks and reads reported them.
    marketingConsent: consent
      ? Object.fromEntries(
          Object.entries(consent.channels).map(([channel, c]) => [
            channel,
            { state: c.state, updatedAt: c.updatedAt?.toISOString() ?? null },
          ]),
        )
      : null,
    // The customer details block's index: which reviews at the service are theirs (ids only).
    reviewsIndexed: reviews.map((r) => ({
      reviewId: r.reviewId,
      productId: r.sku,
      submittedAt: r.reviewedAt.toISOString(),
    })),
    notStored: "No name, e-mail, phone or address is stored by this app.",
    service: SERVICE_NOTE,
  };
  await ctx.db.complianceRequest.create({
    data: { shopDomain: delivery.shop, topic: delivery.topic, customerId, record: JSON.stringify(record) },
  });
}

export async function customersRedact(ctx: ComplianceDeps, delivery: TopicDelivery): Promise<void> {
  const parsed = customerPayload.safeParse(delivery.payload);
  if (!parsed.success) throw new GiveUp("customers/redact payload unusable");
  const customerId = parsed.data.customer?.id ?? null;
  const { shopId, rows } = await customerOrders(ctx, delivery.shop, customerId, parsed.data.orders_to_redact ?? []);
  if (shopId && rows.length)
    await ctx.db.orderState.deleteMany({ where: { shopId, id: { in: rows.map((r) => r.id) } } });
  const consents = shopId && customerId ? await createConsentRepository(ctx.db).deleteCustomer(shopId, customerId) : 0;
  const reviewIndex =
    shopId && customerId ? await createCustomerReviewIndex(ctx.db).deleteCustomer(shopId, customerId) : 0;
  await ctx.db.complianceRequest.create({
    data: {
      shopDomain: delivery.shop,
      topic: delivery.topic,
      customerId,
      record: JSON.stringify({
        deletedOrders: rows.map((r) => r.orderId),
        deletedConsentRecords: consents,
        deletedReviewIndexRows: reviewIndex,
        service: SERVICE_NOTE,
      }),
    },
  });
}

/** Everything of the shop, here and in Redis. Safe to repeat: a second one finds nothing. */
export async function shopRedact(ctx: ComplianceDeps, delivery: TopicDelivery): Promise<void> {
  const shop = await ctx.shops.find(delivery.shop);
  const deleted: Record<string, number> = {};
  if (shop) {
    await ctx.pending.clear(shop.id);
    deleted.orders = (await ctx.db.orderState.deleteMany({ where: { shopId: shop.id } })).count;
    deleted.consents = await createConsentRepository(ctx.db).deleteShop(shop.id);
    deleted.products = (await ctx.db.productMirror.deleteMany({ where: { shopId: shop.id } })).count;
    deleted.syncRuns = (await ctx.db.syncRun.deleteMany({ where: { shopId: shop.id } })).count;
    deleted.deliveries = (await ctx.db.webhookDelivery.deleteMany({ where: { shopId: shop.id } })).count;
    // The back-sync's cursor, per-product digests and Flow trigger records.
    const backSync = await createBackSyncState(ctx.db).forgetShop(shop.id);
    deleted.backSyncCursor = backSync.states;
    deleted.ratingDigests = backSync.digests;
    deleted.flowTriggers = backSync.triggers;
    deleted.flowTriggerUse = await createFlowTriggerUse(ctx.db).forgetShop(shop.id);
    deleted.customerReviews = await createCustomerReviewIndex(ctx.db).forgetShop(shop.id);
    await ctx.db.shop.delete({ where: { id: shop.id } });
  }
  deleted.sessions = (await ctx.db.session.deleteMany({ where: { shop: delivery.shop } })).count;
  // Shoppers' reviews still waiting for the service (sealed e-mails among them).
  deleted.pendingReviews = (await ctx.db.pendingReview.deleteMany({ where: { shop: delivery.shop } })).count;
  await ctx.db.complianceRequest.create({
    data: {
      shopDomain: delivery.shop,
      topic: delivery.topic,
      record: JSON.stringify({ deleted, service: SERVICE_NOTE }),
    },
  });
}
