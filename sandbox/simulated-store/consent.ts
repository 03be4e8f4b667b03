import type { OperationHandler } from "./router";

// Customers' marketing consent in the simulated store: what the CustomerConsent read answers
// (app/.server/shopify/documents.ts) and what the consent webhooks carry, shaped as Shopify writes
// them (API 2026-07). Contact data appears only in webhook payloads, as Shopify sends it.

export type SimConsentState = "SUBSCRIBED" | "NOT_SUBSCRIBED" | "UNSUBSCRIBED" | "PENDING" | "REDACTED" | "INVALID";
export type SimChannel = "email" | "sms" | "whatsapp";

export interface SimChannelConsent {
  state: SimConsentState;
  /** GraphQL DateTime (UTC); null when the consent never changed. */
  updatedAt: string | null;
}

/** A customer's consent; a channel is null when the customer has no address for it (no phone). */
export interface SimCustomerConsent {
  customerId: number;
  email: string | null;
  phone: string | null;
  channels: Record<SimChannel, SimChannelConsent | null>;
}

export type ConsentLookup = (customerId: number) => SimCustomerConsent | null;

/** The CustomerConsent operation over a lookup (the store's own map, then the modules' books). */
export function customerConsentOperation(lookup: ConsentLookup): OperationHandler {
  return {
    // customer (1) and its three consent objects: what Shopify's calculator would say for it.
    handle: (variables) => {
      const gid = typeof variables.id === "string" ? variables.id : "";
      const m = /^gid:\/\/shopify\/Customer\/(\d+)$/.exec(gid);
      if (!m)
        return {
          errors: [{ message: `Invalid global id '${gid}'`, extensions: { code: "argumentLiteralsIncompatible" } }],
        };
      const c = lookup(Number(m[1]));
      if (!c) return { data: { customer: null } };
      const { email, sms, whatsapp } = c.channels;
      return {
        data: {
          customer: {
            id: gid,
            // Consent lives on the address it is about; the address itself is not selected.
            defaultEmailAddress: email ? { marketingState: email.state, marketingUpdatedAt: email.updatedAt } : null,
            defaultPhoneNumber: c.phone ? phoneConsent(sms, whatsapp) : null,
          },
        },
      };
    },
  };
}

/**
 * CustomerPhoneNumber's consent objects (non-null in Shopify's schema). Their state enum
 * (CustomerMarketingConsentState) says NEVER_SUBSCRIBED where addresses say NOT_SUBSCRIBED.
 */
export function phoneConsent(sms: SimChannelConsent | null, whatsapp: SimChannelConsent | null) {
  return {
    smsMarketingConsent: {
      state: !sms || sms.state === "NOT_SUBSCRIBED" ? "NEVER_SUBSCRIBED" : sms.state,
      updatedAt: sms?.updatedAt ?? null,
    },
    whatsAppMarketingConsent: whatsapp ? { state: whatsapp.state, updatedAt: whatsapp.updatedAt } : null,
  };
}

const restTime = (iso: string | null) => (iso === null ? null : iso.replace(/(\.\d+)?Z$/, "+00:00"));

export const CONSENT_TOPIC: Record<SimChannel, string> = {
  email: "customers_email_marketing_consent/update",
  sms: "customers_marketing_consent/update",
  whatsapp: "customers_whats_app_marketing_consent/update",
};

/** The webhook Shopify sends when one channel's consent changes. */
export function consentWebhook(
  c: SimCustomerConsent,
  channel: SimChannel,
): { topic: string; payload: Record<string, unknown> } {
  const consent = c.channels[channel];
  if (!consent) throw new Error(`simulated store: customer ${c.customerId} has no ${channel} consent`);
  const body = {
    state: consent.state.toLowerCase(),
    opt_in_level: consent.state === "SUBSCRIBED" ? "single_opt_in" : null,
    consent_updated_at: restTime(consent.updatedAt),
  };
  if (channel === "email")
    return {
      topic: CONSENT_TOPIC.email,
      payload: { customer_id: c.customerId, email_address: c.email, email_marketing_consent: body },
    };
  const key = channel === "sms" ? "sms_marketing_consent" : "whats_app_marketing_consent";
  return {
    topic: CONSENT_TOPIC[channel],
    payload: { id: c.customerId, phone: c.phone, [key]: { ...body, consent_collected_from: "SHOPIFY" } },
  };
}
