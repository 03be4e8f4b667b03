import { z } from "zod";
import { type AdminGraphql, CUSTOMER_CONSENT } from "../shopify";
import { consentState } from "../mapping";
import type { ConsentReport } from "./consent.repository";

// The one small read of a customer's consent (CustomerConsent): what the live order path asks
// Shopify the first time an order comes for a customer the consent store does not know.

const str = z.string().nullish();
const responseSchema = z.object({
  customer: z
    .looseObject({
      id: z.string(),
      defaultEmailAddress: z.looseObject({ marketingState: str, marketingUpdatedAt: str }).nullish(),
      defaultPhoneNumber: z
        .looseObject({
          smsMarketingConsent: z.looseObject({ state: str, updatedAt: str }).nullish(),
          whatsAppMarketingConsent: z.looseObject({ state: str, updatedAt: str }).nullish(),
        })
        .nullish(),
    })
    .nullable(),
});

const time = (s: string | null | undefined): Date | null => {
  const ms = s ? Date.parse(s) : NaN;
  return Number.isNaN(ms) ? null : new Date(ms);
};

/**
 * The customer's consent per channel as Shopify has it now, read from the address it is about;
 * channels Shopify has nothing for are left out (no e-mail address: no e-mail; no phone: no SMS or
 * WhatsApp). A deleted customer reads as nothing known.
 * Throws the Admin client's typed errors.
 */
export async function readCustomerConsent(
  gql: AdminGraphql,
  customerId: string,
  opts: { signal?: AbortSignal } = {},
): Promise<ConsentReport> {
  const data = responseSchema.parse(
    await gql.query(CUSTOMER_CONSENT, { id: `gid://shopify/Customer/${customerId}` }, opts),
  );
  const c = data.customer;
  const report: ConsentReport = {};
  if (!c) return report;
  const email = consentState(c.defaultEmailAddress?.marketingState);
  if (email) report.email = { state: email, updatedAt: time(c.defaultEmailAddress?.marketingUpdatedAt) };
  const smsConsent = c.defaultPhoneNumber?.smsMarketingConsent;
  const sms = consentState(smsConsent?.state);
  if (sms) report.sms = { state: sms, updatedAt: time(smsConsent?.updatedAt) };
  const wa = c.defaultPhoneNumber?.whatsAppMarketingConsent;
  const whatsapp = consentState(wa?.state);
  if (whatsapp) report.whatsapp = { state: whatsapp, updatedAt: time(wa?.updatedAt) };
  return report;
}
