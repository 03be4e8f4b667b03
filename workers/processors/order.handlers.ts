import type { Job } from "bullmq";
import type { WorkerContext } from "../context";
import { legacyId } from "../../app/.server/mapping/keys";
import {
  deliveryDueAt,
  exclusionReason,
  isExcluded,
  mapOrder,
  orderFingerprint,
  orderName,
  orderUpdatedAt,
  type OrderMapContext,
} from "../../app/.server/mapping/order.mapper";
import { shopifyOrderSchema, type ShopifyOrder } from "../../app/.server/mapping/order.schemas";
import { createOrderStateRepository, EXCLUDED_STATUS } from "../../app/.server/orders/order-state.repository";
import { createProductDataCache, orderProductKeys, type ProductDataCache } from "../../app/.server/orders/product-data";
import {
  emptyTracking,
  fulfillmentEventWebhookSchema,
  fulfillmentWebhookSchema,
  recordEvent,
  recordFulfillment,
  serializeTracking,
  statusSkeleton,
  statusUpdateFor,
  withFulfillments,
  type OrderTracking,
} from "../../app/.server/orders/order-tracking";
import type { TopicHandler } from "./registry";
import type { MappedOrder } from "../../app/.server/mapping/order.schemas";
import {
  CONSENT_CHANNELS,
  consentState,
  pickOptOuts,
  sameOptOuts,
  type ConsentChannel,
} from "../../app/.server/consent/consent-policy";
import type { ConsentReport } from "../../app/.server/consent/consent.repository";
import { consentForOrder, retryConsentRead } from "./consent.processor";
import { PermanentJobError } from "./errors";
import { syncShop, type SyncShop } from "./sync-shop";
import {
  callServiceForOrder,
  lockedOrder,
  requestProductFetch,
  scheduleTrackingAnnouncement,
  sendStatusUpdate,
  syncDeliveryTimer,
} from "./order.processor";

// Live order sync. Every order webhook carries the whole order, and the status is derived from the
// whole order (never from the topic), so all six order topics share one handler: the newest payload
// wins, an older one is dropped, an unchanged one is not sent. Fulfillment webhooks carry no order:
// they are recorded, and move the service's status forward (shipped, delivered) when the last order
// applied plus what they say make it so. All work on one order runs under that order's lock.

const unusable = (what: string, issue: { path: PropertyKey[]; message: string } | undefined) =>
  new PermanentJobError(`${what} payload unusable: ${issue?.path.join(".") ?? ""} ${issue?.message ?? ""}`.trim());

// One per worker context; it lives as long as the context, as the shop cache does.
const productDataCaches = new WeakMap<WorkerContext, ProductDataCache>();
function productDataCache(ctx: WorkerContext): ProductDataCache {
  let cache = productDataCaches.get(ctx);
  if (!cache) productDataCaches.set(ctx, (cache = createProductDataCache(ctx.config.SHOP_CACHE_MS)));
  return cache;
}

/** orders/create, updated, paid, cancelled, fulfilled, partially_fulfilled. */
export const orderChanged: TopicHandler = async (delivery, ctx, job, token) => {
  const shop = await syncShop(ctx, delivery.shop);
  if (!shop) return;
  const parsed = shopifyOrderSchema.safeParse(delivery.payload);
  if (!parsed.success) throw unusable("order", parsed.error.issues[0]);
  const orderId = legacyId(parsed.data.id);
  if (!orderId) throw new PermanentJobError(`order payload unusable: id ${String(parsed.data.id)}`);
  await lockedOrder(ctx, shop.id, orderId, () => applyOrder(ctx, shop, orderId, parsed.data, job, token));
};

/** What applyOrder did with one order state: sent (first time or again), or why not. */
export type OrderApplyOutcome = "created" | "updated" | "unchanged" | "excluded" | "stale";

export interface ApplyOrderOptions {
  /**
   * Customer consent read through GraphQL (the reconciliation has it; webhooks carry none), with
   * Shopify's consent times where the read had them.
   */
  consent?: OrderMapContext["consent"] & { updatedAt?: Partial<Record<ConsentChannel, Date | null>> };
}

/**
 * Applies one whole order (webhook payload, or a reconciliation's order in the same shape) to the
 * service: dropped when older than what was applied, recorded when excluded or unchanged, sent
 * otherwise. The caller holds the order's lock.
 */
export async function applyOrder(
  ctx: WorkerContext,
  shop: SyncShop,
  orderId: string,
  order: ShopifyOrder,
  job: Job,
  token?: string,
  options: ApplyOrderOptions = {},
): Promise<OrderApplyOutcome> {
  const log = ctx.log.child({ shop: shop.domain, order: orderId });
  const states = createOrderStateRepository(ctx.db);
  const state = await states.get(shop.id, orderId);
  const updatedAt = orderUpdatedAt(order);
  if (state?.sentUpdatedAt && state.sentUpdatedAt.getTime() > updatedAt.getTime()) {
    log.debug({ updatedAt, applied: state.sentUpdatedAt }, "older order payload ignored");
    return "stale";
  }

  const tracking: OrderTracking = { ...(state?.tracking ?? emptyTracking()), order: statusSkeleton(order) };
  const customerId = order.customer?.id != null ? legacyId(order.customer.id) : (state?.customerId ?? null);
  // Kept so the admin can show "#1037" where the service answers with its order id.
  const name = orderName(order) ?? state?.name ?? null;
  // Excluded orders (test, gift cards, chosen channels) never cost a consent read.
  const { consent, failure: consentFailure } = exclusionReason(order, shop.settings.orders)
    ? { consent: undefined, failure: undefined }
    : await orderConsent(ctx, shop, customerId, tracking, options.consent);
  // A consent read that failed is retried once the order is recorded, so its correction finds it.
  const retryConsent = () =>
    consentFailure && customerId ? retryConsentRead(ctx, shop, customerId, consentFailure) : Promise.resolve();
  // The payload plus fulfillments that fulfillment webhooks reported after it was written.
  const current = withFulfillments(order, tracking.fulfillments);
  const products = await productDataCache(ctx).load(ctx.db, shop.id, orderProductKeys(current));
  const now = new Date();
  const mapped = mapOrder(current, {
    settings: shop.settings.orders,
    variantKeyMode: shop.settings.catalog.variantKey,
    productData: (productId) => products.byProduct.get(productId),
    fulfillmentEvents: tracking.events,
    consent,
    now,
  });

  if (isExcluded(mapped)) {
    await states.save(shop.id, orderId, {
      sentUpdatedAt: updatedAt,
      status: EXCLUDED_STATUS,
      customerId,
      name,
      deliveryDueAt: null,
      tracking,
    });
    await syncDeliveryTimer(ctx, shop, orderId, null, state?.deliveryDueAt ?? null);
    log.debug({ reason: mapped.excluded }, "order excluded by the shop's settings");
    return "excluded";
  }

  tracking.serviceOrderId = mapped.orderId;
  const fingerprint = orderFingerprint(mapped);
  const optOuts = pickOptOuts(mapped);
  if (state && heldUnchanged(state.fingerprint, state.tracking.optOuts, mapped)) {
    // Shopify sends one payload under several topics (orders/paid and orders/updated): a repeat
    // of what was applied has nothing to record either.
    const repeat =
      state.sentUpdatedAt?.getTime() === updatedAt.getTime() &&
      state.customerId === customerId &&
      state.name === name &&
      serializeTracking(state.tracking) === serializeTracking(tracking);
    if (!repeat) await states.save(shop.id, orderId, { sentUpdatedAt: updatedAt, customerId, name, tracking });
    await retryConsent();
    log.debug("order unchanged for the service");
    return "unchanged";
  }

  // The client adds `version: 2` itself and refuses a body that already has it.
  const { version: _version, ...body } = mapped;
  await callServiceForOrder(ctx, shop, orderId, job, token, (client, opts) => client.admin.createOrderV2(body, opts));
  tracking.optOuts = { body: optOuts, held: optOuts };
  const due = mapped.status === "shipped" ? deliveryDueAt(current, shop.settings.orders, tracking.events) : null;
  await states.save(shop.id, orderId, {
    sentUpdatedAt: updatedAt,
    fingerprint,
    status: mapped.status,
    customerId,
    name,
    deliveryDueAt: due,
    tracking,
    sentAt: now,
    error: null,
    errorAt: null,
  });
  await syncDeliveryTimer(ctx, shop, orderId, due, state?.deliveryDueAt ?? null);
  await retryConsent();
  log.info({ status: mapped.status, items: mapped.items.length }, "order sent");

  if (products.missing.length) {
    // The order went without their productData; the catalog learns them for the next orders.
    await requestProductFetch(ctx, shop, products.missing).catch((e: Error) =>
      log.warn({ err: e.message, products: products.missing }, "product fetch not requested"),
    );
  }
  return state?.sentAt ? "updated" : "created";
}

/**
 * Whether the service holds exactly `mapped`: the last whole order sent (its fingerprint), with the
 * opt-outs a consent change may have put upstream since.
 */
function heldUnchanged(fingerprint: string | null, optOuts: OrderTracking["optOuts"], mapped: MappedOrder): boolean {
  if (!fingerprint) return false;
  if (!optOuts) return fingerprint === orderFingerprint(mapped);
  return sameOptOuts(optOuts.held, mapped) && fingerprint === orderFingerprint({ ...mapped, ...optOuts.body });
}

/**
 * The consent an order is mapped with: the reconciliation's reading (recorded in the consent
 * store, newer wins), else the consent store (one read of a customer not known yet), else for
 * guests what an earlier reconciliation remembered on the order.
 */
async function orderConsent(
  ctx: WorkerContext,
  shop: SyncShop,
  customerId: string | null,
  tracking: OrderTracking,
  given: ApplyOrderOptions["consent"],
): Promise<{ consent: OrderMapContext["consent"]; failure?: unknown }> {
  if (given && (given.email || given.sms || given.whatsapp)) {
    tracking.consent = { email: given.email?.toLowerCase(), sms: given.sms?.toLowerCase() };
  }
  if (!customerId) {
    return {
      consent:
        (given && { email: given.email, sms: given.sms, whatsapp: given.whatsapp }) ??
        (tracking.consent as OrderMapContext["consent"] | null) ??
        undefined,
    };
  }
  const known = given ? reportOf(given) : undefined;
  const { states, failure } = await consentForOrder(ctx, shop, customerId, known);
  return { consent: { ...(tracking.consent as OrderMapContext["consent"] | null), ...states }, failure };
}

/**
 * The reconciliation's states as a report, with Shopify's times where its read had them (none: never over a timed one).
 */
function reportOf(given: NonNullable<ApplyOrderOptions["consent"]>): ConsentReport {
  const report: ConsentReport = {};
  for (const channel of CONSENT_CHANNELS) {
    const state = consentState(given[channel]);
    if (state) report[channel] = { state, updatedAt: given.updatedAt?.[channel] ?? null };
  }
  return report;
}

/** fulfillments/create and fulfillments/update. */
export const fulfillmentChanged: TopicHandler = async (delivery, ctx, job, token) => {
  const shop = await syncShop(ctx, delivery.shop);
  if (!shop) return;
  const parsed = fulfillmentWebhookSchema.safeParse(delivery.payload);
  if (!parsed.success) throw unusable("fulfillment", parsed.error.issues[0]);
  const orderId = legacyId(parsed.data.order_id);
  await lockedOrder(ctx, shop.id, orderId, () =>
    applyTracking(ctx, shop, orderId, (t) => recordFulfillment(t, parsed.data), job, token),
  );
};

/** fulfillment_events/create (a delivery is an event with status `delivered`). */
export const fulfillmentEventCreated: TopicHandler = async (delivery, ctx, job, token) => {
  const shop = await syncShop(ctx, delivery.shop);
  if (!shop) return;
  const parsed = fulfillmentEventWebhookSchema.safeParse(delivery.payload);
  if (!parsed.success) throw unusable("fulfillment event", parsed.error.issues[0]);
  const orderId = legacyId(parsed.data.order_id);
  await lockedOrder(ctx, shop.id, orderId, () =>
    applyTracking(ctx, shop, orderId, (t) => recordEvent(t, parsed.data, new Date()), job, token),
  );
};

async function applyTracking(
  ctx: WorkerContext,
  shop: SyncShop,
  orderId: string,
  change: (t: OrderTracking) => OrderTracking,
  job: Job,
  token?: string,
) {
  const states = createOrderStateRepository(ctx.db);
  const state = await states.get(shop.id, orderId);
  const tracking = change(state?.tracking ?? emptyTracking());
  // Never sent (unknown order, excluded, or only fulfillment news so far): recorded, and the next
  // order webhook sends the order with it.
  const update =
    state && state.status !== EXCLUDED_STATUS && tracking.serviceOrderId
      ? statusUpdateFor(state.status, tracking, shop.settings.orders, new Date())
      : null;
  if (!state || !update) {
    await states.save(shop.id, orderId, { tracking });
    return;
  }
  if (ctx.config.ORDER_TRACKING_GRACE_MS === 0) {
    await sendStatusUpdate(ctx, shop, orderId, state, tracking, update, job, token);
    return;
  }
  // Recorded now, so that an order webhook arriving in the grace carries the news (see order.processor.ts).
  const newsAt = new Date().toISOString();
  await states.save(shop.id, orderId, { tracking: { ...tracking, newsAt } });
  await scheduleTrackingAnnouncement(ctx, shop, orderId, newsAt);
}
