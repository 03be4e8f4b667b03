import { GiveUp, type TopicDelivery } from "../jobs";
import { syncShop, type SyncShopDeps } from "../shops";
import { createConsentRepository, parseConsentWebhook, type ConsentTopic } from "../consent";
import { refreshCustomerOrders, type ConsentDeps } from "./order-consent";

// customers_email_marketing_consent/update, customers_marketing_consent/update (SMS) and
// customers_whats_app_marketing_consent/update: the customer's consent on that channel is kept
// (an older report than the one kept is dropped), then the opt-outs of the customer's orders still
// inside the review window are brought in line upstream (order-consent.ts).

export async function consentUpdated(ctx: ConsentDeps & SyncShopDeps, delivery: TopicDelivery): Promise<void> {
  const shop = await syncShop(ctx, delivery.shop);
  if (!shop) return;
  const event = parseConsentWebhook(delivery.topic as ConsentTopic, delivery.payload);
  if ("error" in event) throw new GiveUp(event.error);
  const written = await createConsentRepository(ctx.db).record(shop.id, event.customerId, {
    [event.channel]: event.consent,
  });
  if (!written.length)
    ctx.log.debug(
      { shop: shop.domain, customer: event.customerId, channel: event.channel },
      "older consent report ignored",
    );
  // Also when nothing was written: a retried job whose first run recorded the consent and then
  // failed midway still corrects the orders it had not reached (orders already in line send nothing).
  await refreshCustomerOrders(ctx, shop, event.customerId);
}
