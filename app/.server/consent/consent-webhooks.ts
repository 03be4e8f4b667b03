import { z } from "zod";
import { legacyId, parseTime, consentState, type ConsentChannel } from "../mapping";
import type { ChannelConsent } from "./consent.repository";

// The consent webhooks Shopify sends since order and customer payloads stopped carrying consent
// (API 2025-01), as documented for API 2026-07:
//   customers_email_marketing_consent/update
//     {customer_id, email_address, email_marketing_consent: {state, opt_in_level, consent_updated_at}}
//   customers_marketing_consent/update (SMS)
//     {id, phone, sms_marketing_consent: {state, opt_in_level, consent_updated_at, consent_collected_from}}
//   customers_whats_app_marketing_consent/update
//     read like the SMS topic, with whats_app_marketing_consent. Shopify's reference lists the
//     topic but we found no sample payload: the customer id is taken from `customer_id` or `id`.
// Only the customer id, the state and the time are read; the address or number is never kept.

export const CONSENT_TOPICS = {
  "customers_email_marketing_consent/update": "email",
  "customers_marketing_consent/update": "sms",
  "customers_whats_app_marketing_consent/update": "whatsapp",
} as const satisfies Record<string, ConsentChannel>;
export type ConsentTopic = keyof typeof CONSENT_TOPICS;

const CONSENT_KEY: Record<ConsentChannel, string[]> = {
  email: ["email_marketing_consent"],
  sms: ["sms_marketing_consent"],
  whatsapp: ["whats_app_marketing_consent", "whatsapp_marketing_consent"],
};

const id = z.union([z.number(), z.string().min(1)]);
const payloadSchema = z.looseObject({ customer_id: id.nullish(), id: id.nullish() });
const consentSchema = z.looseObject({ state: z.string(), consent_updated_at: z.string().nullish() });

export interface ConsentEvent {
  customerId: string;
  channel: ConsentChannel;
  consent: ChannelConsent;
}

/** The event a consent webhook reports, or the reason it cannot be used. */
export function parseConsentWebhook(topic: ConsentTopic, payload: unknown): ConsentEvent | { error: string } {
  const channel = CONSENT_TOPICS[topic];
  const parsed = payloadSchema.safeParse(payload);
  if (!parsed.success) return { error: `${topic} payload is not an object` };
  const rawId = parsed.data.customer_id ?? parsed.data.id;
  const customerId = rawId == null ? "" : legacyId(rawId);
  if (!/^\d+$/.test(customerId)) return { error: `${topic} payload has no customer id` };
  const key = CONSENT_KEY[channel].find((k) => parsed.data[k] != null);
  const consent = consentSchema.safeParse(key ? parsed.data[key] : undefined);
  if (!consent.success) return { error: `${topic} payload has no ${CONSENT_KEY[channel][0]}` };
  const state = consentState(consent.data.state);
  if (!state) return { error: `${topic}: unknown consent state ${JSON.stringify(consent.data.state)}` };
  return { customerId, channel, consent: { state, updatedAt: parseTime(consent.data.consent_updated_at) ?? null } };
}
