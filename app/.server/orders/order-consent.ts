import { enqueueConsentRead, GiveUp, shopifyThrottleAsRetry, type JobServices, type ReadConsentJob } from "../jobs";
import { NoOfflineSessionError, ShopifyApiError, ShopifyThrottledError, isAddressRefused } from "../shopify";
import { CONSENT_CHANNELS, optOutsFor, pickOptOuts, sameOptOuts, type ConsentStates, type OptOuts } from "../mapping";
import {
  createConsentRepository,
  statesOf,
  type ConsentReport,
  type CustomerConsentRecord,
  readCustomerConsent,
} from "../consent";
import { createOrderStateRepository, EXCLUDED_STATUS } from "./order-state.repository";
import { callServiceForOrder, lockedOrder, type OrderCallDeps } from "./order-calls";
import { syncShop, type SyncShop, type SyncShopDeps } from "../shops";

// Buyers' marketing consent on the live path. Order webhooks carry none since API 2025-01, so:
// - an order of a customer the consent store does not know reads the customer's consent once
//   (CustomerConsent, one small GraphQL call), and the store keeps it; later orders of that
//   customer cost no Admin API call, and the consent webhooks keep the store current;
// - a read that fails never holds the order back: it goes with what is known (the policy's answer
//   for unknown consent) and a maintenance job "read-consent" retries the read with backoff, then
//   corrects the customer's orders upstream;
// - a consent change (webhook, or that late read) updates the customer's orders still inside the
//   review window upstream: a version-2 upsert of the order's id, status and new opt-outs, sent
//   only where the opt-outs the service holds differ, under the order's lock, so it goes once
//   however often the change is delivered.

/** Orders whose latest Shopify change is this recent are still inside the review window. */
export const REVIEW_WINDOW_DAYS = 60;
// A worker answers the first order of a new customer with one read; the customer's other orders
// in flight in this process wait for that read instead of making their own.
const readsInFlight = new Map<string, Promise<CustomerConsentRecord | null>>();
const READ_KEPT_MS = 5_000;
// The order waits at most this long for the read (a slow or throttled Shopify included); then it
// goes with what is known and the read is retried on its own.
const ORDER_PATH_READ_MS = 5_000;

/** What the consent path uses: the consent store, Shopify, the maintenance queue, the service. */
export type ConsentDeps = OrderCallDeps & Pick<JobServices, "adminFor">;

const everyChannelKnown = (r: CustomerConsentRecord) => CONSENT_CHANNELS.every((c) => r.channels[c]);

/** Reads the customer's consent from Shopify and records it (newer wins) as read now. */
async function readAndRecord(
  ctx: Pick<JobServices, "adminFor" | "db">,
  shop: SyncShop,
  customerId: string,
  signal?: AbortSignal,
): Promise<CustomerConsentRecord | null> {
  const gql = await ctx.adminFor(shop.domain);
  const report = await readCustomerConsent(gql, customerId, { signal });
  const consents = createConsentRepository(ctx.db);
  await consents.record(shop.id, customerId, report, { read: new Date() });
  return consents.get(shop.id, customerId);
}

export interface OrderConsent {
  states: ConsentStates;
  /** True when this call read the consent from Shopify. */
  read: boolean;
  /**
   * The read failed in a way Shopify may get over (not a missing session or a refusal): once the
   * order is recorded, retryConsentRead has it retried and the customer's orders corrected. Asked
   * after the record, so that the correction finds the order.
   */
  failure?: unknown;
}

/**
 * The consent to map one order with. `known` (the reconciliation's bulk read) is recorded first,
 * newer wins. The caller holds the order's lock.
 */
export async function consentForOrder(
  ctx: Pick<JobServices, "adminFor" | "db" | "log">,
  shop: SyncShop,
  customerId: string,
  known?: ConsentReport,
): Promise<OrderConsent> {
  const consents = createConsentRepository(ctx.db);
  // The reconciliation read the customer's consent with the order: as good as the one read.
  if (known) await consents.record(shop.id, customerId, known, { read: new Date() });
  const record = await consents.get(shop.id, customerId);
  if (record && (record.readAt || everyChannelKnown(record))) return { states: statesOf(record), read: false };

  const key = `${shop.id}\u0000${customerId}`;
  let pending = readsInFlight.get(key);
  const mine = !pending;
  if (!pending) {
    // A read that answered is kept a little: an order that looked the customer up just before it
    // was recorded joins it instead of reading again. A failed one is forgotten at once.
    pending = readAndRecord(ctx, shop, customerId, AbortSignal.timeout(ORDER_PATH_READ_MS)).then(
      (read) => {
        setTimeout(() => readsInFlight.delete(key), READ_KEPT_MS).unref();
        return read;
      },
      (error: unknown) => {
        readsInFlight.delete(key);
        throw error;
      },
    );
    readsInFlight.set(key, pending);
  }
  try {
    const read = await pending;
    return { states: statesOf(read), read: mine };
  } catch (error) {
    // Never holds the order back: it goes with what is known, and the caller has the read retried
    // on its own once the order is recorded (retryConsentRead).
    ctx.log.warn(
      { shop: shop.domain, customer: customerId, err: (error as Error).message },
      "consent read failed; order sent with the consent known so far",
    );
    // A refusal of this server's address is retried too: the read job parks until a probe passes.
    const retryable =
      error instanceof ShopifyApiError
        ? error.retryable || isAddressRefused(error)
        : !(error instanceof NoOfflineSessionError);
    return { states: statesOf(record), read: false, ...(retryable ? { failure: error } : {}) };
  }
}

/** Queues the read that failed on an order's path; one waiting job per customer. Never throws. */
export async function retryConsentRead(
  ctx: Pick<JobServices, "queues" | "config" | "log">,
  shop: SyncShop,
  customerId: string,
  cause: unknown,
): Promise<void> {
  await scheduleConsentRead(ctx, shop, customerId, cause).catch((e: Error) =>
    ctx.log.warn({ err: e.message }, "consent read not scheduled"),
  );
}

async function scheduleConsentRead(
  ctx: Pick<JobServices, "queues" | "config">,
  shop: SyncShop,
  customerId: string,
  cause: unknown,
): Promise<void> {
  const data: ReadConsentJob = { shop: shop.domain, shopId: shop.id, customerId };
  const delay = cause instanceof ShopifyThrottledError ? cause.retryAfterMs : ctx.config.JOB_BACKOFF_MS;
  // One waiting read per customer, however many of their orders met the failure.
  await enqueueConsentRead(ctx.queues, data, delay);
}

/** maintenance/"read-consent": the read that failed on the order path, then the orders corrected. */
export async function readConsentLater(ctx: ConsentDeps & SyncShopDeps, data: ReadConsentJob) {
  const shop = await syncShop(ctx, data.shop);
  if (!shop) return { skipped: "shop not syncing" };
  const known = await createConsentRepository(ctx.db).get(shop.id, data.customerId);
  if (!known?.readAt) {
    try {
      await readAndRecord(ctx, shop, data.customerId);
    } catch (error) {
      if (error instanceof ShopifyThrottledError) throw shopifyThrottleAsRetry(error);
      if (isAddressRefused(error)) throw error; // parked: read again once a probe passes
      if (error instanceof NoOfflineSessionError || (error instanceof ShopifyApiError && !error.retryable)) {
        throw new GiveUp(`consent of customer ${data.customerId} not read: ${(error as Error).message}`);
      }
      throw error;
    }
  }
  return refreshCustomerOrders(ctx, shop, data.customerId);
}

/**
 * Brings the opt-outs the service holds for the customer's orders inside the review window in line
 * with the consent now known. Idempotent: an order whose held opt-outs already match sends nothing,
 * so a repeated or retried change sends each order once.
 */
export async function refreshCustomerOrders(
  ctx: OrderCallDeps,
  shop: SyncShop,
  customerId: string,
): Promise<{ updated: number }> {
  const since = new Date(Date.now() - REVIEW_WINDOW_DAYS * 86_400_000);
  const rows = await ctx.db.orderState.findMany({
    where: {
      shopId: shop.id,
      customerId,
      status: { notIn: [EXCLUDED_STATUS, "cancelled"] },
      sentAt: { not: null },
      sentUpdatedAt: { gte: since },
    },
    select: { orderId: true },
  });
  let updated = 0;
  for (const { orderId } of rows) {
    const sent = await lockedOrder(ctx, shop.id, orderId, async () => {
      const states = createOrderStateRepository(ctx.db);
      const state = await states.get(shop.id, orderId);
      const serviceOrderId = state?.tracking.serviceOrderId;
      if (!state?.status || state.status === EXCLUDED_STATUS || state.status === "cancelled" || !serviceOrderId)
        return false;
      // Read under the lock: of two changes racing, the one that sends last has seen both.
      const consent = statesOf(await createConsentRepository(ctx.db).get(shop.id, customerId));
      const held = state.tracking.optOuts?.held;
      const next = withUnknownAsHeld(optOutsFor(shop.settings.orders.optOut, consent), consent, held);
      if (held && sameOptOuts(held, next)) return false;
      await callServiceForOrder(ctx, shop, orderId, (client, opts) =>
        client.admin.createOrderV2({ orderId: serviceOrderId, status: state.status as never, ...next }, opts),
      );
      const body = state.tracking.optOuts?.body ?? held ?? next;
      await states.save(shop.id, orderId, {
        tracking: { ...state.tracking, optOuts: { body, held: next } },
        sentAt: new Date(),
        error: null,
        errorAt: null,
      });
      return true;
    });
    if (sent) updated++;
  }
  if (updated)
    ctx.log.info(
      { shop: shop.domain, customer: customerId, orders: updated },
      "opt-outs updated upstream after a consent change",
    );
  return { updated };
}

/**
 * A channel the store knows nothing of keeps what the service holds (its order webhook may have
 * known more, e.g. the checkout's marketing box); only known channels move.
 */
function withUnknownAsHeld(next: OptOuts, consent: ConsentStates, held: OptOuts | undefined): OptOuts {
  if (!held) return pickOptOuts(next);
  return {
    optOutEmail: consent.email ? next.optOutEmail : held.optOutEmail,
    optOutSMS: consent.sms ? next.optOutSMS : held.optOutSMS,
    optOutWhatsApp: consent.whatsapp || consent.sms ? next.optOutWhatsApp : held.optOutWhatsApp,
  };
}
