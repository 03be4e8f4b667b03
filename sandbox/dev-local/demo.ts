import { parseConfig } from "../../app/.server/config";
import { keyFrom } from "../../app/.server/crypto";
import { offlineSessionId, sessionColumns } from "../../app/.server/shopify";
import { createDb } from "../../app/.server/db";
import { createQueues } from "../../app/.server/queues";
import { createShopRepository } from "../../app/.server/shops";
import { startSync, createSyncRuns, parseProgress } from "../../app/.server/sync";
import { progressLine } from "../../app/.server/cli";
import { requestBackSync } from "../../app/.server/backsync";
import { createReviewsClient } from "../../app/.server/reviews";

// The offline demo's story, told against the running app: a demo shop connects to the (emulated)
// reviews service, and its whole catalog goes across from the simulated store.

export const DEMO_SHOP = "demo-shop.myshopify.com";
// The emulator's default account (sandbox/emulator/server.ts DEFAULT_ACCOUNT).
export const DEMO_ACCOUNT = { customer: "demo-store", clientId: "demo-client", clientSecret: "demo-secret" };

/** An install's offline session from the simulated store's control endpoint (an expiring pair). */
async function installedSession(storeControlUrl: string, encryptionKey: string) {
  const res = await fetch(`${storeControlUrl}/session`, { method: "POST" });
  if (!res.ok) throw new Error(`the simulated store gave no offline session (HTTP ${res.status})`);
  const s = (await res.json()) as Record<"accessToken" | "expires" | "refreshToken" | "refreshTokenExpires", string>;
  return sessionColumns(
    { ...s, expires: new Date(s.expires), refreshTokenExpires: new Date(s.refreshTokenExpires) },
    keyFrom(encryptionKey),
  );
}

/** The demo account's reviews client, straight to the emulator: how the demo's acts write reviews. */
export function demoReviewsClient(emulatorOrigin: string) {
  return createReviewsClient({
    account: {
      ...DEMO_ACCOUNT,
      apiUrl: `${emulatorOrigin}/api`,
      authUrl: `${emulatorOrigin}/auth`,
      rateUrl: emulatorOrigin,
    },
  });
}

/** Asks for a back-sync run of the demo shop now, as a moderation in the admin does. */
export async function requestDemoBackSync(env: NodeJS.ProcessEnv, opts: { reconcile?: boolean } = {}): Promise<void> {
  const config = parseConfig(env);
  const db = createDb(config.DATABASE_URL);
  const queues = createQueues({
    redisUrl: config.REDIS_URL,
    cluster: config.REDIS_CLUSTER,
    prefix: config.REDIS_PREFIX,
    role: "producer",
  });
  try {
    const shop = await db.shop.findUniqueOrThrow({ where: { domain: DEMO_SHOP } });
    await requestBackSync({ queues, config }, shop.id, opts);
  } finally {
    await queues.close();
    await db.$disconnect();
  }
}

export async function runCatalogDemo(options: {
  env: NodeJS.ProcessEnv;
  /** The simulated store's control endpoint: it issues the install's token pair. */
  storeControlUrl: string;
  emulatorOrigin: string;
  say: (line: string) => void;
  /** The sync's state as it moves (a terminal rewrites it in place); `say` when not given. */
  progress?: (line: string) => void;
  timeoutMs?: number;
}): Promise<{ products: number; status: string }> {
  const progress = options.progress ?? options.say;
  const config = parseConfig(options.env);
  const db = createDb(config.DATABASE_URL);
  const queues = createQueues({
    redisUrl: config.REDIS_URL,
    cluster: config.REDIS_CLUSTER,
    prefix: config.REDIS_PREFIX,
    role: "producer",
  });
  try {
    const shops = createShopRepository(db, config.ENCRYPTION_KEY);
    await shops.connect({
      domain: DEMO_SHOP,
      customerKey: DEMO_ACCOUNT.customer,
      clientId: DEMO_ACCOUNT.clientId,
      clientSecret: DEMO_ACCOUNT.clientSecret,
    });
    // What an install would have stored: the offline session (expiring pair) the workers use.
    const session = await installedSession(options.storeControlUrl, config.ENCRYPTION_KEY);
    await db.session.upsert({
      where: { id: offlineSessionId(DEMO_SHOP) },
      create: {
        id: offlineSessionId(DEMO_SHOP),
        shop: DEMO_SHOP,
        state: "",
        isOnline: false,
        scope: config.SCOPES,
        ...session,
      },
      update: session,
    });
    options.say(`connected ${DEMO_SHOP} to the reviews service as customer ${DEMO_ACCOUNT.customer}`);
    const shop = await shops.get(DEMO_SHOP);
    const { run } = await startSync({ db, queues }, shop.id, "catalog");
    options.say(`full catalog sync started (run ${run.id})`);
    const runs = createSyncRuns(db);
    const deadline = Date.now() + (options.timeoutMs ?? 300_000);
    let last = "";
    for (;;) {
      const current = await runs.get(run.id);
      const line = progressLine(parseProgress(current?.progress ?? "{}"), current?.status ?? "?");
      const done = !current || ["completed", "failed", "cancelled"].includes(current.status);
      // The last state stays on screen as a line of its own.
      if (done) options.say(`catalog sync ${line}`);
      else if (line !== last) progress(`catalog sync ${line}`);
      last = line;
      if (done) {
        const state = (await (
          await fetch(`${options.emulatorOrigin}/__emulator/state?customer=${DEMO_ACCOUNT.customer}`)
        ).json()) as { products: unknown[] };
        options.say(`the reviews service now holds ${state.products.length} products of ${DEMO_SHOP}`);
        return { products: state.products.length, status: current?.status ?? "missing" };
      }
      if (Date.now() > deadline) throw new Error("the demo catalog sync did not finish in time");
      await new Promise((r) => setTimeout(r, 500));
    }
  } finally {
    await queues.close();
    await db.$disconnect();
  }
}

// A second demo shop, installed but not connected: the embedded admin's onboarding from the start
// (the merchant enters the demo account's credentials in the form).
export const FRESH_SHOP = "fresh-shop.myshopify.com";

export async function installFreshShop(options: { env: NodeJS.ProcessEnv; storeControlUrl: string }) {
  const config = parseConfig(options.env);
  const db = createDb(config.DATABASE_URL);
  try {
    const shops = createShopRepository(db, config.ENCRYPTION_KEY);
    await shops.markInstalled(FRESH_SHOP);
    const session = await installedSession(options.storeControlUrl, config.ENCRYPTION_KEY);
    await db.session.upsert({
      where: { id: offlineSessionId(FRESH_SHOP) },
      create: {
        id: offlineSessionId(FRESH_SHOP),
        shop: FRESH_SHOP,
        state: "",
        isOnline: false,
        scope: config.SCOPES,
        ...session,
      },
      update: session,
    });
  } finally {
    await db.$disconnect();
  }
}
