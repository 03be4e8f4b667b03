import type { Browser } from "playwright-core";
import { startStack, type Stack } from "./stack";
import { OrderBook, ordersModule, startSimulatedStore, type SimulatedStore } from "../../sandbox/simulated-store";
import type { appBridgeStandIn } from "../../sandbox/app-bridge/stand-in";
import { buildAdmin, launchChromium, openAdmin, serveAdmin, type AdminServer, type AdminTab } from "./admin-browser";
import { ADMIN_SESSION_LIFETIME_MS, seedOfflineSession } from "./offline-session";

// Everything the embedded admin's browser tests need: the data path on real parts (startStack: the
// emulator, Redis, a database, workers), a simulated store for the shop's Admin API, the app built
// and served, and Chromium. The shop has its offline session stored, as after an install.

export interface AdminStack {
  s: Stack;
  store: SimulatedStore;
  book: OrderBook;
  server: AdminServer;
  browser: Browser;
  shop: string;
  /** `bridge`: App Bridge's script as the stand-in built with these options; `allow`: more origins to reach. */
  open(opts?: {
    width?: number;
    shop?: string;
    bridge?: Parameters<typeof appBridgeStandIn>[0];
    allow?: string[];
  }): Promise<AdminTab>;
  close(): Promise<void>;
}

export async function startAdminStack(
  label: string,
  shop: string,
  opts: { products?: number; orders?: number; bulkDurationMs?: number; overrides?: Record<string, string> } = {},
): Promise<AdminStack> {
  const book = new OrderBook({ seed: 5, count: opts.orders ?? 0, productCount: opts.products ?? 12 });
  const store = await startSimulatedStore({
    shop,
    products: opts.products ?? 12,
    seed: 5,
    bulkDurationMs: opts.bulkDurationMs ?? 50,
    modules: [ordersModule(book)],
    tokenLifetimeMs: ADMIN_SESSION_LIFETIME_MS,
  });
  const s = await startStack(label, {
    SHOPIFY_ORIGIN: store.originTemplate,
    BULK_POLL_INTERVAL_MS: "100",
    ...opts.overrides,
  });
  await seedOfflineSession(s.t.db, store, { shop, scope: s.config.SCOPES, lifetimeMs: ADMIN_SESSION_LIFETIME_MS });
  const buildDir = await buildAdmin();
  const server = await serveAdmin(buildDir, s.t.db);
  const browser = await launchChromium();
  const tabs: AdminTab[] = [];
  return {
    s,
    store,
    book,
    server,
    browser,
    shop,
    async open(o = {}) {
      // The service's media (review photos) come from the emulator, as they would from its CDN.
      const tab = await openAdmin(browser, server, o.shop ?? shop, {
        width: o.width,
        allow: [new URL(s.emu.baseUrl).origin, ...(o.allow ?? [])],
        bridge: o.bridge,
      });
      tabs.push(tab);
      return tab;
    },
    async close() {
      for (const t of tabs) await t.close().catch(() => {});
      await browser.close();
      await server.close();
      await s.close();
      await store.close();
    },
  };
}
