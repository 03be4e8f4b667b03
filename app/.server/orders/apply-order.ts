import type { JobServices } from "../jobs";
import {
  legacyId,
  deliveryDueAt,
  exclusionReason,
  isExcluded,
  mapOrder,
  orderFingerprint,
  orderName,
  orderUpdatedAt,
  type OrderMapContext,
  type MappedOrder,
  type ShopifyOrder,
  CONSENT_CHANNELS,
  consentState,
  pickOptOuts,
  sameOptOuts,
  type ConsentChannel,
  isOlderThan,
  versionOf,
  type ChangeSource,
} from "../mapping";
import type { ConsentReport } from "../consent";
import { consentForOrder, retryConsentRead, type ConsentDeps } from "./order-consent";
import { requestProductFetch } from "../catalog";
import type { SyncShop } from "../shops";
import { createOrderStateRepository, EXCLUDED_STATUS } from "./order-state.repository";
import { createProductDataCache, orderProductKeys, type ProductDataCache } from "./product-data";
import {
  emptyTracking,
  serializeTracking,
  statusSkeleton,
  withFulfillments,
  type OrderTracking,
} from "./order-tracking";
import { callServiceForOrder } from "./order-calls";
import { syncDeliveryTimer } from "./order-timers";
import { noteOrderDelivered } from "../activity";

// One whole order applied to the service, by the order webhooks and the reconciliation alike: the
// newest payload wins, an older one is dropped, an unchanged one is not sent. The status is
// derived from the whole order (never from the topic).

export type ApplyOrderDeps = ConsentDeps;

// One per worker context (the services object); it lives as long as the context, as the shop cache does.
const productDataCaches = new WeakMap<object, ProductDataCache>();
function productDataCache(ctx: Pick<JobServices, "config">): ProductDataCache {
  let cache = productDataCaches.get(ctx);
  if (!cache) productDataCaches.set(ctx, (cache = createProductDataCache(ctx.config.SHOP_CACHE_MS)));
  return cache;
}

/** What applyOrder did with one order state: sent (first time or again), or why not. */
export type OrderApplyOutcome = "created" | "updated" | "unchanged" | "excluded" | "stale";

export interface ApplyOrderOptions {
  /**
   * Customer consent read through GraphQL (the reconciliation has it; webhooks carry none), with
   * Shopify's consent times where the read had them.
   */
  consent?: OrderMapContext["consent"] & { updatedAt?: Partial<Record<ConsentChannel, Date | null>> };
  /**
   * What breaks a tie of updated_at (mapping/change-version.ts): the delivery that carried the order
   * (triggered-at, event id), or the read that got it (when it began).
   */
  source?: ChangeSource;
}

/**
 * Applies one whole order (webhook payload, or a reconciliation's order in the same shape) to the
 * service: dropped when older than what was applied, recorded when excluded or unchanged, sent
 * otherwise. The caller holds the order's lock.
 */
export async function applyOrder(
  ctx: ApplyOrderDeps,
  shop: SyncShop,
  orderId: string,
  order: ShopifyOrder,
  options: ApplyOrderOptions = {},
): Promise<OrderApplyOutcome> {
  const log = ctx.log.child({ shop: shop.domain, order: orderId });
  const states = createOrderStateRepository(ctx.db);
  const state = await states.get(shop.id, orderId);
  const updatedAt = orderUpdatedAt(order);
  // The payload's own text, to every digit it has: its Date is cut to milliseconds.
  const sentVersion = versionOf(order.updated_at ?? order.created_at, options.source) ?? null;
  if (isOlderThan(sentVersion ?? undefined, state?.sentVersion)) {
    log.debug({ updatedAt, applied: state?.sentUpdatedAt }, "older order payload ignored");
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
      sentVersion,
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
      state.sentVersion === sentVersion &&
      state.customerId === customerId &&
      state.name === name &&
      serializeTracking(state.tracking) === serializeTracking(tracking);
    if (!repeat)
      await states.save(shop.id, orderId, { sentUpdatedAt: updatedAt, sentVersion, customerId, name, tracking });
    await retryConsent();
    log.debug("order unchanged for the service");
    return "unchanged";
  }

  // The client adds `version: 2` itself and refuses a body that already has it.
  const { version: _version, ...body } = mapped;
  await callServiceForOrder(ctx, shop, orderId, (client, opts) => client.admin.createOrderV2(body, opts));
  tracking.optOuts = { body: optOuts, held: optOuts };
  const due = mapped.status === "shipped" ? deliveryDueAt(current, shop.settings.orders, tracking.events) : null;
  await states.save(shop.id, orderId, {
    sentUpdatedAt: updatedAt,
    sentVersion,
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
  if (mapped.status === "delivered" && state?.status !== "delivered") await noteOrderDelivered(ctx, shop.id);

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
  ctx: ApplyOrderDeps,
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
