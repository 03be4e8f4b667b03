import { z } from "zod";

// Merchant settings of one shop, stored as JSON text on Shop.settings and parsed here on every read.
// Every field has a default so a shop connected before a field existed still parses.

const channelOptOut = z.enum([
  // Opt the buyer out unless Shopify records marketing consent for this channel (opt-in).
  "consent",
  // Opt the buyer out only when Shopify records them as unsubscribed from this channel, or the
  // address as invalid or erased (opt-out: a review request treated as part of the purchase).
  "unsubscribed",
  // Never opt out: review requests are transactional messages about a purchase.
  "never",
  // Always opt out: the merchant does not want this channel used.
  "always",
]);

export const shopSettingsSchema = z.object({
  catalog: z
    .object({
      // Which Shopify value becomes the catalog `variants[]` entry and the order item `sku`.
      // Changing it after reviews exist orphans them: `npm run cli -- settings set` counts the account's
      // reviews first and refuses without --force, then starts a full catalog sync with the new keys
      // (cli/settings.commands.ts); the admin's settings page shows the count and saves only once
      // the merchant confirms (admin/settings-form.ts).
      variantKey: z.enum(["id", "sku"]).default("id"),
      // Used when a new product has no product type, taxonomy category or collection.
      defaultCategory: z.string().min(1).default("General"),
      // Product metafields ("namespace.key") sent as extra specifications.
      specificationMetafields: z.array(z.string().regex(/^[^.\s]+\.[^.\s]+$/)).default([]),
    })
    .prefault({}),
  orders: z
    .object({
      // `id` is stable; `name` (#1001) is what shoppers type into "find my order".
      orderIdSource: z.enum(["id", "name"]).default("id"),
      seller: z
        .discriminatedUnion("mode", [
          z.object({ mode: z.literal("none") }),
          z.object({ mode: z.literal("vendor") }),
          z.object({ mode: z.literal("property"), property: z.string().min(1) }),
        ])
        .default({ mode: "none" }),
      // Many stores never receive a "delivered" fulfillment event. null = off.
      deliveredAfterDays: z.number().int().min(1).max(90).nullable().default(null),
      // Defaults: review apps treat an e-mail review request as part of the purchase (sent unless
      // the buyer unsubscribed); SMS and WhatsApp need recorded consent (docs/orders.md).
      optOut: z
        .object({
          email: channelOptOut.default("unsubscribed"),
          sms: channelOptOut.default("consent"),
          whatsapp: channelOptOut.default("consent"),
        })
        .prefault({}),
      exclude: z
        .object({
          testOrders: z.boolean().default(true),
          giftCardOnly: z.boolean().default(true),
          // Values of the order's source_name (web, pos, shopify_draft_order, or a channel's app id).
          sourceNames: z.array(z.string().min(1)).default([]),
        })
        .prefault({}),
      // How far back the backfill reaches on connect (Shopify allows 60 days without read_all_orders).
      backfillDays: z.number().int().min(0).max(60).default(60),
    })
    .prefault({}),
  storefront: z
    .object({
      // A shopper who is neither logged in nor able to name an order may write a review with an
      // e-mail alone. Off: such a review cannot be told from a competitor's or a bot's.
      guestReviews: z.boolean().default(false),
      // A shopper who is neither logged in nor able to name an order may ask a question with a
      // name and an e-mail. Off by default; questions are answered (and published) by the store
      // before anyone sees them, so the risk is the store's inbox, not its pages.
      guestQuestions: z.boolean().default(false),
      // Media a shopper may add to a review (the service documents no limits; these are ours and
      // are checked before anything is uploaded). Types: JPEG, PNG, WebP, HEIC; MP4, MOV, WebM.
      photosPerReview: z.number().int().min(0).max(10).default(5),
      photoMaxMb: z.number().int().min(1).max(20).default(10),
      videoMaxMb: z.number().int().min(0).max(500).default(100),
    })
    .prefault({}),
  googleFeed: z
    .object({
      // "I offer incentives for reviews" (a discount, points, a gift, a draw for writing one).
      // Google requires every review obtained with an incentive to carry is_incentivized_review;
      // the service does not say which reviews got one, so on marks every review in the feed.
      incentivizedReviews: z.boolean().default(false),
    })
    .prefault({}),
  flow: z
    .object({
      // Shopify Flow "negative review received" fires for a moderated review rated at or below this.
      negativeRatingAtOrBelow: z.number().int().min(1).max(4).default(2),
    })
    .prefault({}),
});

export type ShopSettings = z.infer<typeof shopSettingsSchema>;

export const defaultSettings: ShopSettings = shopSettingsSchema.parse({});

/** Parses stored settings text; a corrupt value falls back to defaults rather than stopping the sync. */
export function parseSettings(text: string | null | undefined): ShopSettings {
  if (!text) return defaultSettings;
  try {
    return shopSettingsSchema.parse(JSON.parse(text));
  } catch {
    return defaultSettings;
  }
}
