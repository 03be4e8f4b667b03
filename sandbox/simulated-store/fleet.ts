import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { answerFailure, createShopStore, notFound, type ShopStore, type SimulatedStoreOptions } from "./server";

// Many shops behind one HTTP server, each under SHOPIFY_ORIGIN's template form /shops/{shop}: what a
// benchmark of thousands of installs talks to. Each shop is a whole simulated store (tokens,
// throttle, bulk operations, metafields); a shop the fleet was not given answers 404, as a shop
// that does not exist does.

export interface StoreFleet {
  origin: string;
  /** SHOPIFY_ORIGIN for the app: {origin}/shops/{shop}. */
  originTemplate: string;
  /** Adds a shop (its store made with the fleet's options and these), or returns the one there. */
  add(domain: string, options?: SimulatedStoreOptions): ShopStore;
  shop(domain: string): ShopStore | undefined;
  size(): number;
  /** Requests answered for any shop so far (the shops keep no history of their own here). */
  requests(): number;
  close(): Promise<void>;
}

export async function startStoreFleet(
  options: { port?: number; host?: string; shopOptions?: SimulatedStoreOptions } = {},
): Promise<StoreFleet> {
  const shops = new Map<string, ShopStore>();
  let requests = 0;
  const server = createServer((req, res) => {
    requests++;
    const url = new URL(req.url ?? "/", "http://localhost");
    const prefixed = /^\/shops\/([^/]+)(\/.*)$/.exec(url.pathname);
    const store = prefixed ? shops.get(decodeURIComponent(prefixed[1])) : undefined;
    if (!prefixed || !store) return notFound(res);
    store.serve(req, res, prefixed[2]).catch((error: unknown) => answerFailure(res, error));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const address = server.address() as AddressInfo;
  const origin = `http://${address.address}:${address.port}`;
  return {
    origin,
    originTemplate: `${origin}/shops/{shop}`,
    add(domain, extra = {}) {
      let store = shops.get(domain);
      if (!store) {
        store = createShopStore({ ...options.shopOptions, ...extra, shop: domain });
        store.setOrigin(`${origin}/shops/${encodeURIComponent(domain)}`);
        shops.set(domain, store);
      }
      return store;
    },
    shop: (domain) => shops.get(domain),
    size: () => shops.size,
    requests: () => requests,
    async close() {
      for (const store of shops.values()) store.dispose();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
