import type { AppContext } from "../context.server";
import { createSyncRuns, parseProgress } from "../sync";
import { createProductMirror } from "../catalog";
import { activateEmbedLink, addBlockLink, THEME_BLOCKS } from "../../shared/theme-blocks";

// The home page's setup checklist, read from real state: the connection and whether it works (its
// credentials passed a token request in the admin, or the service took data through it), the sync
// runs and the orders sent, the review-request policy in the settings, and what the merchant
// confirmed. The theme is read in the browser (App Bridge's `app.extensions()`); the server keeps
// only that the step was once done (seen on by App Bridge, or confirmed by hand where App Bridge
// cannot tell), so a finished guide loads collapsed. Whether the merchant hid the guide, too.

export type OnboardingStep = "credentials" | "catalog" | "orders" | "policy" | "theme";

/** What the home page shows of the setup: its steps and the connection (never the secret). */
export type OnboardingState = Awaited<ReturnType<typeof onboardingState>>;

export async function onboardingState(ctx: AppContext, domain: string, apiKey: string) {
  const shop = await ctx.shops.ensure(domain);
  const status = await ctx.shops.status(shop.domain);
  const confirmed = await ctx.db.adminOnboarding.findUnique({ where: { shopId: shop.id } });
  const runs = createSyncRuns(ctx.db);
  const since = shop.connectedAt ?? new Date(0);
  const [catalogDone, catalogActive, ordersDone, ordersActive, mirror, acceptedSince, ordersSent] = await Promise.all([
    ctx.db.syncRun.findFirst({
      where: { shopId: shop.id, kind: "catalog", status: "completed" },
      orderBy: { startedAt: "desc" },
    }),
    runs.active(shop.id, "catalog"),
    ctx.db.syncRun.findFirst({
      where: { shopId: shop.id, kind: "orders", status: "completed" },
      orderBy: { startedAt: "desc" },
    }),
    runs.active(shop.id, "orders"),
    createProductMirror(ctx.db).counts(shop.id),
    // The service took data with this connection: it works, however it was made (admin or CLI).
    ctx.db.productMirror.count({ where: { shopId: shop.id, acceptedAt: { gte: since } } }),
    ctx.db.orderState.count({ where: { shopId: shop.id, sentAt: { not: null } } }),
  ]);
  const ordersSentSince = ordersSent
    ? await ctx.db.orderState.count({ where: { shopId: shop.id, sentAt: { gte: since } } })
    : 0;
  const connectionWorks = Boolean(confirmed?.credentialsCheckedAt) || acceptedSince > 0 || ordersSentSince > 0;
  const credentialsChecked = status.connected && connectionWorks;
  const steps = {
    credentials: { done: credentialsChecked, customerKey: status.customerKey },
    catalog: {
      done: Boolean(catalogDone),
      running: catalogActive ? { read: parseProgress(catalogActive.progress).read } : null,
      synced: mirror.synced,
    },
    orders: {
      // The backfill ran, or orders reach the service as they come (a shop connected by the CLI).
      done: Boolean(ordersDone) || ordersSent > 0,
      backfilled: Boolean(ordersDone),
      sent: ordersSent,
      running: ordersActive ? { read: parseProgress(ordersActive.progress).read } : null,
      days: status.settings.orders.backfillDays,
    },
    policy: { done: Boolean(confirmed?.policyConfirmedAt), optOut: status.settings.orders.optOut },
    theme: {
      /** Done once: App Bridge saw the blocks on, or the merchant confirmed them. */
      done: Boolean(confirmed?.themeConfirmedAt),
      links: {
        starRating: addBlockLink(shop.domain, apiKey, THEME_BLOCKS.starRating),
        reviews: addBlockLink(shop.domain, apiKey, THEME_BLOCKS.reviews),
        embed: activateEmbedLink(shop.domain, apiKey),
        // Classic customer accounts: "rate your orders" on the account page.
        orderReviews: addBlockLink(shop.domain, apiKey, THEME_BLOCKS.orderReviews, "customers/account"),
      },
    },
  };
  // Only what the page shows: the mask of the secret, never the secret (encrypted or clear).
  const connection = {
    connected: status.connected,
    customerKey: status.customerKey,
    clientId: status.clientId,
    clientSecretMask: status.connected ? status.clientSecret : null,
    apiUrl: status.apiUrl,
    authUrl: status.authUrl,
    rateUrl: status.rateUrl,
    defaults: {
      apiUrl: ctx.config.REVIEWS_API_URL,
      authUrl: ctx.config.REVIEWS_AUTH_URL,
      rateUrl: ctx.config.REVIEWS_RATE_URL,
    },
  };
  return { domain: shop.domain, connection, steps, dismissed: Boolean(confirmed?.dismissedAt) };
}

/** Hides the setup guide for the shop (`dismissed`), or brings it back. */
export async function dismissOnboarding(ctx: AppContext, domain: string, dismissed: boolean) {
  const shop = await ctx.shops.get(domain);
  const dismissedAt = dismissed ? new Date() : null;
  await ctx.db.adminOnboarding.upsert({
    where: { shopId: shop.id },
    create: { shopId: shop.id, dismissedAt },
    update: { dismissedAt },
  });
}

export async function confirmStep(ctx: AppContext, domain: string, step: "policy" | "theme" | "credentials") {
  const shop = await ctx.shops.get(domain);
  const field = { policy: "policyConfirmedAt", theme: "themeConfirmedAt", credentials: "credentialsCheckedAt" }[step];
  const now = new Date();
  await ctx.db.adminOnboarding.upsert({
    where: { shopId: shop.id },
    create: { shopId: shop.id, [field]: now },
    update: { [field]: now },
  });
}
