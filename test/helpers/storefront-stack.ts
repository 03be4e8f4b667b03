import { runBackSync, type BackSyncResult } from "../../app/.server/backsync/backsync";
import { startSync } from "../../app/.server/sync/start-sync";
import type { Config } from "../../app/.server/config";
import { startLocalStorefront, type LocalStorefront } from "../../sandbox/local-storefront/server";
import {
  startSimulatedStore,
  type SimulatedStore,
  type SimulatedStoreOptions,
} from "../../sandbox/simulated-store/server";
import { OrderBook, ordersModule, type SimOrder } from "../../sandbox/simulated-store/orders";
import { placeAccountOrder } from "../../sandbox/simulated-store/order-story";
import type { StorefrontCustomer } from "../../sandbox/simulated-store/storefront-customers";
import { startProxyAppServer, type ProxyAppServer } from "./proxy-app-server";
import { startStack, type Stack } from "./stack";
import { eventually } from "./contexts";
import { seedOfflineSession } from "./offline-session";

// The storefront read path on real parts, as `dev:local` runs it: a simulated store, the emulator
// holding its catalog (a real full sync) and reviews for its products, the real back-sync writing
// the metafields, the app's proxy routes behind an HTTP server, and the local storefront in front.

export const STOREFRONT_SHOP = "storefront-shop.myshopify.com";

export interface StorefrontStack {
  s: Stack;
  store: SimulatedStore;
  app: ProxyAppServer;
  storefront: LocalStorefront;
  /** Product ids in store order; the first has the most reviews. */
  productIds: string[];
  /** Handle of the product with the most reviews. */
  reviewedHandle: string;
  /** A product without reviews. */
  unreviewedHandle: string;
  /** Pending review per reviewed product id (approve it in the emulator to see it appear). */
  pending: Record<string, string>;
  /** The store's orders (none at start). */
  book: OrderBook;
  /**
   * An order of a storefront account for the products at these indexes, sent to the app as
   * Shopify's webhooks (placed and paid; `delivered`: shipped and delivered too); resolves once the
   * service holds it.
   */
  placeOrder(
    customer: StorefrontCustomer,
    productIndexes: number[],
    opts?: { delivered?: boolean; at?: Date },
  ): Promise<SimOrder>;
  backSync(): Promise<BackSyncResult>;
  close(): Promise<void>;
}

export async function startStorefrontStack(
  label: string,
  overrides: Partial<Record<keyof Config, string>> = {},
  products = 10,
  /** The store's throttle (a Shopify Plus bucket, say); Standard's by default. */
  throttle?: SimulatedStoreOptions["throttle"],
  /** The shop's money format and currency ("${{amount}}", USD by default). */
  money?: SimulatedStoreOptions["money"],
): Promise<StorefrontStack> {
  const book = new OrderBook({ productCount: products });
  const store = await startSimulatedStore({
    products,
    shop: STOREFRONT_SHOP,
    modules: [ordersModule(book)],
    ...(throttle ? { throttle } : {}),
    ...(money ? { money } : {}),
  });
  const s = await startStack(label, { SHOPIFY_ORIGIN: store.originTemplate, ...overrides });
  await s.connect(STOREFRONT_SHOP);
  await seedOfflineSession(s.t.db, store, { shop: STOREFRONT_SHOP });
  const shop = await s.web.shops.get(STOREFRONT_SHOP);
  const { run } = await startSync({ db: s.web.db, queues: s.web.queues }, shop.id, "catalog");
  await eventually(
    async () => (await s.web.db.syncRun.findUnique({ where: { id: run.id } }))?.status,
    (st) => st === "completed",
    60_000,
  );
  await s.idle();

  const productIds = store.products().map((p) => p.id.replace(/^gid:\/\/shopify\/Product\//, ""));
  const seeded = s.emu.control.seedReviews({ customer: "acme", skus: productIds });
  const backSync = async () =>
    runBackSync({
      db: s.worker.db,
      redis: s.worker.queues.redis,
      prefix: s.prefix,
      log: s.worker.log,
      shop: { id: shop.id, domain: STOREFRONT_SHOP },
      gql: await s.worker.adminFor(STOREFRONT_SHOP),
      reviews: await s.worker.reviewsFor(STOREFRONT_SHOP),
      settings: await s.web.shops.settings(STOREFRONT_SHOP),
    });
  await backSync();

  const app = await startProxyAppServer();
  const storefront = await startLocalStorefront({
    storeGraphqlUrl: store.graphqlEndpoint,
    storeAccessToken: store.accessToken,
    shop: STOREFRONT_SHOP,
    apiVersion: store.apiVersion,
    appUrl: app.origin,
    apiSecret: s.config.SHOPIFY_API_SECRET,
  });
  const handleOf = (id: string) => store.product(id)!.handle;
  const unreviewed = productIds.find((id) => seeded.published[id] === 0)!;
  return {
    s,
    store,
    app,
    storefront,
    productIds,
    reviewedHandle: handleOf(productIds[0]),
    unreviewedHandle: handleOf(unreviewed),
    pending: seeded.pending,
    book,
    async placeOrder(customer, productIndexes, opts = {}) {
      const changes = placeAccountOrder(book, customer, productIndexes, opts);
      const id = changes[0]!.order.id;
      for (const w of changes.flatMap((c) => c.webhooks)) {
        const res = await s.deliver(w.topic, STOREFRONT_SHOP, w.payload);
        if (res.status !== 200) throw new Error(`${w.topic}: ${res.status}`);
      }
      await s.idle();
      const status = opts.delivered ? "delivered" : "paid";
      await eventually(
        async () => s.emu.control.state("acme").orders.find((o) => o.orderId === String(id))?.status,
        (st) => st === status,
        30_000,
      );
      return book.get(id)!;
    },
    backSync,
    async close() {
      await storefront.close();
      await app.close();
      await s.close();
      await store.close();
    },
  };
}
