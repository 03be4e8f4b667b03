import type { Db } from "../db";
import type { Shop } from "@prisma/client";
import { keyFrom, mask, open, seal } from "../crypto";
import { parseSettings, shopSettingsSchema, type ShopSettings } from "../settings";
import { z } from "zod";
import type { ReviewsAccount } from "../reviews";

// Everything the app knows about one installed store. Every read and write names the shop: no
// function here can reach another shop's rows.

export const shopDomainSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9][a-z0-9-]*\.myshopify\.com$/, "must be a shop domain like my-store.myshopify.com");

const optionalUrl = z
  .url({ protocol: /^https?$/ })
  .transform((u) => u.replace(/\/+$/, ""))
  .optional();

export const connectionInputSchema = z.object({
  domain: shopDomainSchema,
  customerKey: z
    .string()
    .trim()
    .min(1, "customer key is required")
    .regex(/^[^/\s]+$/, "customer key may not contain / or spaces"),
  clientId: z.string().trim().min(1, "client id is required"),
  clientSecret: z.string().min(1, "client secret is required"),
  apiUrl: optionalUrl,
  authUrl: optionalUrl,
  rateUrl: optionalUrl,
});

export type ConnectionInput = z.input<typeof connectionInputSchema>;

/** What may be shown to a person (CLI, admin UI): never the secret, only its mask. */
export interface ShopStatus {
  domain: string;
  installState: string;
  connected: boolean;
  customerKey: string | null;
  clientId: string | null;
  clientSecret: string;
  apiUrl: string | null;
  authUrl: string | null;
  rateUrl: string | null;
  primaryDomain: string | null;
  connectedAt: Date | null;
  settings: ShopSettings;
}

export class ShopNotFoundError extends Error {
  constructor(readonly domain: string) {
    super(`No shop ${domain}`);
    this.name = "ShopNotFoundError";
  }
}

export class ShopNotConnectedError extends Error {
  constructor(readonly domain: string) {
    super(`Shop ${domain} is not connected to the reviews service`);
    this.name = "ShopNotConnectedError";
  }
}

export function createShopRepository(db: Db, encryptionKey: string) {
  const key = keyFrom(encryptionKey);

  async function ensure(domain: string) {
    const d = shopDomainSchema.parse(domain);
    return db.shop.upsert({ where: { domain: d }, create: { domain: d }, update: {} });
  }

  async function find(domain: string) {
    return db.shop.findUnique({ where: { domain: shopDomainSchema.parse(domain) } });
  }

  async function get(domain: string) {
    const shop = await find(domain);
    if (!shop) throw new ShopNotFoundError(domain);
    return shop;
  }

  return {
    ensure,
    find,
    get,

    async connect(input: ConnectionInput) {
      const c = connectionInputSchema.parse(input);
      const data = {
        customerKey: c.customerKey,
        clientId: c.clientId,
        clientSecretEncrypted: seal(c.clientSecret, key),
        apiUrl: c.apiUrl ?? null,
        authUrl: c.authUrl ?? null,
        rateUrl: c.rateUrl ?? null,
        connectedAt: new Date(),
        installState: "installed",
        uninstalledAt: null,
      };
      return db.shop.upsert({ where: { domain: c.domain }, create: { domain: c.domain, ...data }, update: data });
    },

    async disconnect(domain: string) {
      const shop = await get(domain);
      return db.shop.update({
        where: { id: shop.id },
        data: { customerKey: null, clientId: null, clientSecretEncrypted: null, connectedAt: null },
      });
    },

    async status(domain: string): Promise<ShopStatus> {
      const shop = await get(domain);
      let secret: string | null = null;
      if (shop.clientSecretEncrypted) secret = open(shop.clientSecretEncrypted, key);
      return {
        domain: shop.domain,
        installState: shop.installState,
        connected: Boolean(shop.customerKey && shop.clientId && shop.clientSecretEncrypted),
        customerKey: shop.customerKey,
        clientId: shop.clientId,
        clientSecret: mask(secret),
        apiUrl: shop.apiUrl,
        authUrl: shop.authUrl,
        rateUrl: shop.rateUrl,
        primaryDomain: shop.primaryDomain,
        connectedAt: shop.connectedAt,
        settings: parseSettings(shop.settings),
      };
    },

    /**
     * The account for the reviews client, with the secret in clear (server-side only, never logged):
     * per-shop URL overrides, else the deployment's URLs.
     */
    async account(
      domain: string,
      defaults: { apiUrl: string; authUrl: string; rateUrl: string },
      /** The shop's row when the caller read it already (a back-sync poll: one query fewer). */
      row?: Shop,
    ): Promise<ReviewsAccount> {
      const shop = row?.domain === domain ? row : await get(domain);
      if (!shop.customerKey || !shop.clientId || !shop.clientSecretEncrypted)
        throw new ShopNotConnectedError(shop.domain);
      return {
        customer: shop.customerKey,
        clientId: shop.clientId,
        clientSecret: open(shop.clientSecretEncrypted, key),
        apiUrl: shop.apiUrl ?? defaults.apiUrl,
        authUrl: shop.authUrl ?? defaults.authUrl,
        rateUrl: shop.rateUrl ?? defaults.rateUrl,
      };
    },

    async settings(domain: string): Promise<ShopSettings> {
      return parseSettings((await get(domain)).settings);
    },

    async updateSettings(domain: string, next: unknown): Promise<ShopSettings> {
      const shop = await get(domain);
      const settings = shopSettingsSchema.parse(next);
      await db.shop.update({ where: { id: shop.id }, data: { settings: JSON.stringify(settings) } });
      return settings;
    },

    async setPrimaryDomain(domain: string, primaryDomain: string) {
      const shop = await get(domain);
      await db.shop.update({ where: { id: shop.id }, data: { primaryDomain: primaryDomain.replace(/\/+$/, "") } });
    },

    async markInstalled(domain: string) {
      const shop = await ensure(domain);
      if (shop.installState === "installed") return shop;
      return db.shop.update({ where: { id: shop.id }, data: { installState: "installed", uninstalledAt: null } });
    },

    /** Idempotent: a second app/uninstalled, or one after the shop was redacted, changes nothing. */
    async markUninstalled(domain: string) {
      const shop = await find(domain);
      if (!shop || shop.installState === "uninstalled") return shop;
      return db.shop.update({
        where: { id: shop.id },
        data: { installState: "uninstalled", uninstalledAt: new Date() },
      });
    },
  };
}

export type ShopRepository = ReturnType<typeof createShopRepository>;
