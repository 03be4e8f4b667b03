import "@shopify/shopify-app-remix/adapters/node";
import { ApiVersion, AppDistribution, shopifyApp } from "@shopify/shopify-app-remix/server";
import { PrismaSessionStorage } from "@shopify/shopify-app-session-storage-prisma";
import { loadConfig } from "./.server/config";
import { appContext } from "./.server/context.server";
import { keyFrom } from "./.server/crypto";
import { SHOPIFY_API_VERSION } from "./.server/shopify";
import { resumeAfterReauth } from "./.server/install";
import prisma from "./db.server";
import { SealedSessionStorage } from "./.server/web";

const config = loadConfig();

export const apiVersion = SHOPIFY_API_VERSION as ApiVersion;

const shopify = shopifyApp({
  apiKey: config.SHOPIFY_API_KEY,
  apiSecretKey: config.SHOPIFY_API_SECRET,
  apiVersion,
  scopes: config.SCOPES.split(","),
  appUrl: config.SHOPIFY_APP_URL,
  authPathPrefix: "/auth",
  // Refresh tokens sealed at rest; the workers' token provider reads the same rows.
  sessionStorage: new SealedSessionStorage(new PrismaSessionStorage(prisma), keyFrom(config.ENCRYPTION_KEY)),
  distribution: AppDistribution.AppStore,
  // Non-expiring offline tokens stop working on 2027-01-01: installs and reopens get expiring pairs.
  future: { unstable_newEmbeddedAuthStrategy: true, expiringOfflineAccessTokens: true },
  hooks: {
    // A (re)install marks the shop installed; the connection to the service is made by the
    // merchant (or `npm run cli -- connect`), which starts the first full sync.
    // The library stored a fresh offline pair: a shop that waited for its merchant resumes.
    afterAuth: async ({ session }) => {
      await appContext().shops.markInstalled(session.shop);
      await resumeAfterReauth(appContext(), session.shop);
    },
  },
  ...(config.SHOP_CUSTOM_DOMAIN ? { customShopDomains: [config.SHOP_CUSTOM_DOMAIN] } : {}),
});

export default shopify;
export const addDocumentResponseHeaders = shopify.addDocumentResponseHeaders;
export const authenticate = shopify.authenticate;
export const unauthenticated = shopify.unauthenticated;
export const login = shopify.login;
export const registerWebhooks = shopify.registerWebhooks;
export const sessionStorage = shopify.sessionStorage;
