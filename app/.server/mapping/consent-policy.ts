// Marketing consent as Shopify records it, and what the shop's policy makes of it: the opt-outs
// every order carries to the reviews service. Pure; shared by the order mapper, the consent
// webhooks (which update orders already upstream) and the offline demo's check.

export const CONSENT_CHANNELS = ["email", "sms", "whatsapp"] as const;
export type ConsentChannel = (typeof CONSENT_CHANNELS)[number];

/** Marketing consent states of Shopify (GraphQL enums in any case, or REST lowercase). */
export const CONSENT_STATES = [
  "subscribed",
  "not_subscribed",
  "unsubscribed",
  "pending",
  "redacted",
  "invalid",
] as const;
export type ConsentState = (typeof CONSENT_STATES)[number];

/** Per channel, the state when known; a missing channel is unknown. */
export type ConsentStates = Partial<Record<ConsentChannel, ConsentState>>;

/**
 * How a channel's opt-out is decided (settings `orders.optOut.<channel>`):
 * - `consent`: opted out unless Shopify records the buyer as subscribed (opt-in; unknown opts out);
 * - `unsubscribed`: opted out only when Shopify records the buyer as unsubscribed, or the address
 *   as invalid or erased (opt-out; unknown does not opt out);
 * - `never`: never opted out; `always`: always opted out.
 */
export const CHANNEL_MODES = ["consent", "unsubscribed", "never", "always"] as const;
export type ChannelMode = (typeof CHANNEL_MODES)[number];

export interface OptOuts {
  optOutEmail: boolean;
  optOutSMS: boolean;
  optOutWhatsApp: boolean;
}

const STATES: ReadonlySet<string> = new Set(CONSENT_STATES);
// What `unsubscribed` mode treats as "the buyer said no" (or cannot be written to).
const REFUSED: ReadonlySet<string> = new Set(["unsubscribed", "redacted", "invalid"]);

/**
 * "SUBSCRIBED", " subscribed " → "subscribed"; anything else → undefined. NEVER_SUBSCRIBED (the
 * state enum of SMS and WhatsApp consent objects) means what NOT_SUBSCRIBED means on addresses.
 */
export function consentState(value: unknown): ConsentState | undefined {
  if (typeof value !== "string") return undefined;
  const s = value.trim().toLowerCase();
  if (s === "never_subscribed") return "not_subscribed";
  return STATES.has(s) ? (s as ConsentState) : undefined;
}

/** One channel's opt-out under `mode`, from its state (undefined: unknown). */
export function optOutFor(mode: ChannelMode, state: ConsentState | undefined): boolean {
  switch (mode) {
    case "never":
      return false;
    case "always":
      return true;
    case "unsubscribed":
      return state !== undefined && REFUSED.has(state);
    case "consent":
      return state !== "subscribed";
  }
}

/**
 * The three opt-outs. WhatsApp follows its own consent; where Shopify gave none (older API
 * versions, payloads without it) it follows SMS consent: same number, same kind of message.
 */
export function optOutsFor(modes: Record<ConsentChannel, ChannelMode>, states: ConsentStates): OptOuts {
  return {
    optOutEmail: optOutFor(modes.email, states.email),
    optOutSMS: optOutFor(modes.sms, states.sms),
    optOutWhatsApp: optOutFor(modes.whatsapp, states.whatsapp ?? states.sms),
  };
}

export const sameOptOuts = (a: OptOuts, b: OptOuts): boolean =>
  a.optOutEmail === b.optOutEmail && a.optOutSMS === b.optOutSMS && a.optOutWhatsApp === b.optOutWhatsApp;

export const pickOptOuts = (o: OptOuts): OptOuts => ({
  optOutEmail: o.optOutEmail,
  optOutSMS: o.optOutSMS,
  optOutWhatsApp: o.optOutWhatsApp,
});
