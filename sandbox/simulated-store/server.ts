import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { SHOPIFY_API_VERSION } from "../../app/.server/shopify";
import { BulkOperations, type BulkOperationRecord } from "./bulk";
import type { ShopifyProductNode } from "./product-generator";
import {
  APP_INSTALLATION_GID,
  MetafieldStore,
  metafieldsModule,
  type FlowTriggerCall,
  type MetafieldDefinition,
  type StoredMetafield,
} from "./metafields";
import { MetaobjectStore, metaobjectsModule, type StoredMetaobject } from "./metaobjects";
import { ProductCatalog, productsModule, type ProductPatch } from "./products";
import { StoreRouter, requestOperationName, type GraphqlError, type StoreContext, type StoreModule } from "./router";
import { StoreBucket } from "./throttle";
import { MAX_QUERY_COST, QueryRefused, checkedDocument, maxCostExceeded, requestedQueryCost } from "./query-cost";
import { loadAdminSchema } from "../shopify-schema/schema";
import { deliverWebhook } from "./webhooks";
import { customerConsentOperation, type SimCustomerConsent } from "./consent";
import { customerIdentityOperation } from "./storefront-customers";
import {
  INVALID_TOKEN_BODY,
  TokenAuthority,
  type OfflineSessionFields,
  type TokenStats,
  type TokenUse,
} from "./tokens";

// A Shopify shop over real HTTP, for tests and the offline demo: the Admin GraphQL endpoint (only
// the documents the app runs, matched by operation name), cost-based throttling with Shopify's
// THROTTLED answer, bulk operations with streamed JSONL results, signed webhook deliveries, and
// offline tokens as Shopify issues them (tokens.ts). It answers at its origin and under
// /shops/{its shop} (SHOPIFY_ORIGIN's template form).

export interface SimulatedStoreOptions {
  port?: number;
  host?: string;
  shop?: string;
  /** The shop's non-expiring offline token (an install from before expiring tokens). */
  accessToken?: string;
  /** How long an expiring access token lives: 60 s by default (Shopify: 3600 s). */
  tokenLifetimeMs?: number;
  /** How long a refresh token lives: 90 days by default, as at Shopify. */
  refreshTokenLifetimeMs?: number;
  /** As after 2027-01-01: the non-expiring token is refused (GraphQL and migration exchange). */
  after2027?: boolean;
  /** The app's client id; with apiSecret, the token endpoint checks the client's credentials. */
  apiKey?: string;
  apiVersion?: string;
  /** What ShopPrimaryDomain answers; https://{shop name}.example.com by default. */
  primaryDomain?: string;
  /** A count of generated products (made lazily from `seed`), or explicit nodes. */
  products?: number | ShopifyProductNode[];
  seed?: number;
  /** The shop's money format (`Shop.currencyFormats.moneyFormat`) and currency: "${{amount}}", USD by default. */
  money?: { format: string; currencyCode: string };
  /** Shopify Standard plan numbers by default: 2,000 points, 100 per second. */
  throttle?: { maximumAvailable?: number; restoreRate?: number };
  /** How long a bulk operation runs before it completes. */
  bulkDurationMs?: number;
  /** Where to POST bulk_operations/finish (signed with apiSecret). */
  webhookUrl?: string;
  apiSecret?: string;
  /**
   * Restricted standard metaobject definitions the app is granted, as a development store with the
   * app's test access (product_review by default); [] answers as a store of an app outside the program.
   */
  grantedMetaobjects?: string[];
  /** More GraphQL operations and bulk roots (an orders module, for one). */
  modules?: StoreModule[];
  fetch?: typeof globalThis.fetch;
  /**
   * Keeps every request and token use for the tests to read (the default). A benchmark's fleet of
   * thousands of shops keeps none: its memory would grow with every call.
   */
  keepHistory?: boolean;
}

export interface RequestRecord {
  operationName: string | undefined;
  variables: Record<string, unknown>;
  status: number;
  throttled: boolean;
  /** The requested cost computed from the document (absent: refused before it was costed). */
  requestedCost?: number;
  /** The access token the call carried and what it was then. */
  token: TokenUse;
}

export interface WebhookRecord {
  topic: string;
  status: number | null;
  error?: string;
  payload: unknown;
}

export interface SimulatedStore {
  origin: string;
  /** The origin of this shop under SHOPIFY_ORIGIN's template form: {origin}/shops/{shop}. */
  shopOrigin: string;
  /** SHOPIFY_ORIGIN for this store: {origin}/shops/{shop}, the template form. */
  originTemplate: string;
  graphqlEndpoint: string;
  shop: string;
  /** The non-expiring offline token: for the migration tests (and direct clients) only. */
  accessToken: string;
  apiVersion: string;
  primaryDomain: string;
  close(): Promise<void>;
  addProduct(patch?: ProductPatch): ShopifyProductNode;
  updateProduct(
    id: string | number,
    patch: ProductPatch | ((p: ShopifyProductNode) => ProductPatch),
  ): ShopifyProductNode;
  deleteProduct(id: string | number): boolean;
  product(id: string | number): ShopifyProductNode | null;
  /** Every live product (materialises generated ones: for small stores). */
  products(): ShopifyProductNode[];
  /** Lets a test register a module after start (same as `modules`). */
  register(module: StoreModule): void;
  // ---- offline tokens (tokens.ts) ----
  /**
   * A fresh expiring pair, as an install stores it in the Session row (its access token living `lifetimeMs`,
   * tokenLifetimeMs by default).
   */
  installSession(lifetimeMs?: number): OfflineSessionFields;
  /** Every refresh token stops working (revoked, 90 days unused, uninstalled). */
  revokeRefreshTokens(): void;
  /** Every access token issued so far is expired now. */
  expireAccessTokens(): void;
  /** The merchant revoked the app's access: every token (expiring or not) is refused from now on. */
  revokeTokens(): void;
  setAfter2027(on: boolean): void;
  setTokenLifetimeMs(ms: number): void;
  readonly tokenStats: TokenStats;
  /** Every GraphQL call's token, in order, with its state then. */
  readonly tokenUses: TokenUse[];
  // ---- test controls and observations ----
  /** The next `count` GraphQL requests answer with this status (and body). */
  injectFailure(f: { status: number; body?: string; count?: number }): void;
  /** Sets the cost bucket's level now (0 drains it). */
  setAvailablePoints(points: number): void;
  failNextBulkOperation(errorCode?: string): void;
  /**
   * The IP allowlist refuses this client's address (true) or lets it through again (false): every
   * Admin API call answers HTTP 403 with a body shaped like Shopify's. Refused calls are recorded
   * (status 403) in `requests`.
   */
  refuseAddress(refused: boolean): void;
  /**
   * Bulk operations not enabled for the app (or disabled after 31 days unused): bulkOperationRunQuery
   * answers a top-level ACCESS_DENIED error (`"userError"`: a userError with that code instead).
   * `failNextBulkOperation("ACCESS_DENIED")` gives the third form, an operation that fails.
   */
  disableBulk(as?: "error" | "userError"): void;
  enableBulk(): void;
  bulkOperations(): BulkOperationRecord[];
  /** Completes the running bulk operations now (a drill that no longer needs them running). */
  finishBulkOperations(): Promise<void>;
  /** Sets what CustomerConsent answers for a customer (over what an order book says). */
  setCustomerConsent(consent: SimCustomerConsent): void;
  /** GraphQL requests answered so far for one operation (CustomerConsent: the consent reads). */
  operationCount(name: string): number;
  readonly requests: RequestRecord[];
  readonly webhookDeliveries: WebhookRecord[];
  readonly bulkDownloads: { n: number; sentAccessToken: boolean }[];
  // ---- metafields (metafields.ts) ----
  /** The app installation's gid: owner of app-data metafields. */
  readonly appInstallationId: string;
  /**
   * What the app wrote on an owner (a product gid or appInstallationId), optionally in one namespace (`$app:reviews`
   * resolves).
   */
  metafields(ownerId: string, namespace?: string): StoredMetafield[];
  metafield(ownerId: string, namespace: string, key: string): StoredMetafield | null;
  /** Owners (product gids, the installation) holding at least one metafield the app wrote. */
  metafieldOwners(): string[];
  metafieldDefinitions(): MetafieldDefinition[];
  /** Writes as metafieldsSet would, without the API (a test's "drift"); throws on userErrors. */
  setMetafields(
    inputs: { ownerId: string; namespace: string; key: string; type: string; value: string }[],
  ): StoredMetafield[];
  /** Every accepted flowTriggerReceive call, in order. */
  readonly flowTriggers: FlowTriggerCall[];
  // ---- metaobjects (metaobjects.ts) ----
  /** The metaobjects of a type, in the order they were created. */
  metaobjects(type: string): StoredMetaobject[];
  /** Whether the standard definition of a type is switched on. */
  metaobjectDefinitionEnabled(type: string): boolean;
  /** The app is (or is no longer) granted a restricted standard definition. */
  grantStandardMetaobject(type: string, on: boolean): void;
  /** The merchant deletes a metaobject definition in the admin (its metaobjects go with it). */
  deleteMetaobjectDefinition(type: string): void;
}

async function readBody(req: IncomingMessage, limit = 5_000_000): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new Error("body too large");
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(text),
  });
  res.end(text);
}

/** One shop's store without its HTTP server: a server (one shop's or a fleet's) routes to `serve`. */
export interface ShopStore extends Omit<
  SimulatedStore,
  "origin" | "shopOrigin" | "originTemplate" | "graphqlEndpoint" | "close"
> {
  /** Answers one request for this shop; `path` is the request's path without /shops/{shop}. */
  serve(req: IncomingMessage, res: ServerResponse, path: string): Promise<void>;
  /** Where this shop is served (bulk result URLs point there). */
  setOrigin(origin: string): void;
  /** Stops the shop's timers (bulk operations running). */
  dispose(): void;
}

export function createShopStore(options: SimulatedStoreOptions = {}): ShopStore {
  const shop = options.shop ?? "sim-store.myshopify.com";
  const accessToken = options.accessToken ?? "shpat_simulated_0123456789abcdef";
  const tokens = new TokenAuthority({
    legacyToken: accessToken,
    tokenLifetimeMs: options.tokenLifetimeMs ?? 60_000,
    refreshTokenLifetimeMs: options.refreshTokenLifetimeMs ?? 90 * 86_400_000,
    scope:
      "write_products,read_orders,read_fulfillments,read_customers,write_metafields,write_metaobject_definitions,write_metaobjects,write_app_proxy",
    after2027: options.after2027,
    keepUses: options.keepHistory,
    ...(options.apiKey && options.apiSecret ? { clientId: options.apiKey, clientSecret: options.apiSecret } : {}),
  });
  const apiVersion = options.apiVersion ?? SHOPIFY_API_VERSION;
  const seed = options.seed ?? 1;
  const primaryDomain = options.primaryDomain ?? `https://${shop.replace(/\.myshopify\.com$/, "")}.example.com`;
  const catalog =
    typeof options.products === "number" || options.products === undefined
      ? new ProductCatalog(options.products ?? 0, seed)
      : new ProductCatalog(0, seed, options.products);
  const bucket = new StoreBucket({
    maximumAvailable: options.throttle?.maximumAvailable ?? 2_000,
    restoreRate: options.throttle?.restoreRate ?? 100,
  });
  const requests: RequestRecord[] = [];
  const webhookDeliveries: WebhookRecord[] = [];
  const bulkDownloads: { n: number; sentAccessToken: boolean }[] = [];
  const failures: { status: number; body?: string }[] = [];
  let addressRefused = false;
  const fetchImpl = options.fetch ?? globalThis.fetch;

  const ctx: StoreContext = { shop, origin: "", apiVersion, seed, now: () => new Date() };
  // Shopify's published schema of the app's version: every query is validated and costed against it.
  const { schema } = loadAdminSchema();
  const router = new StoreRouter();

  const postWebhook = (topic: string, payload: unknown) => {
    if (!options.webhookUrl) return;
    const record: WebhookRecord = { topic, status: null, payload };
    webhookDeliveries.push(record);
    if (!options.apiSecret) {
      record.error = "no apiSecret given: not delivered";
      return;
    }
    deliverWebhook({
      url: options.webhookUrl,
      topic,
      shop,
      apiSecret: options.apiSecret,
      apiVersion,
      payload,
      fetch: fetchImpl,
    })
      .then((r) => {
        record.status = r.status;
      })
      .catch((e: unknown) => {
        record.error = e instanceof Error ? e.message : String(e);
      });
  };

  const bulk = new BulkOperations(router, ctx, options.bulkDurationMs ?? 20, (op) => {
    postWebhook("bulk_operations/finish", {
      admin_graphql_api_id: op.id,
      completed_at: op.completedAt,
      created_at: op.createdAt,
      error_code: op.errorCode ? op.errorCode.toLowerCase() : null,
      status: op.status.toLowerCase(),
      type: "query",
    });
  });

  router.register({
    name: "shop",
    operations: {
      AdminAccessProbe: {
        handle: () => ({ data: { shop: { id: "gid://shopify/Shop/63712485438" } } }),
      },
      ShopMoneyFormat: {
        handle: () => ({
          data: {
            shop: {
              id: "gid://shopify/Shop/63712485438",
              currencyCode: options.money?.currencyCode ?? "USD",
              currencyFormats: { moneyFormat: options.money?.format ?? "${{amount}}" },
            },
          },
        }),
      },
      ShopPrimaryDomain: {
        handle: () => ({
          data: {
            shop: {
              id: "gid://shopify/Shop/63712485438",
              myshopifyDomain: shop,
              primaryDomain: { url: primaryDomain, host: new URL(primaryDomain).host },
            },
          },
        }),
      },
    },
  });
  const metafieldStore = new MetafieldStore((gid) => gid === APP_INSTALLATION_GID || catalog.get(gid) !== null);
  const consents = new Map<number, SimCustomerConsent>();
  router.register({
    name: "customers",
    operations: {
      CustomerConsent: customerConsentOperation(
        (id) => consents.get(id) ?? router.consentSources.map((f) => f(id)).find((c) => c) ?? null,
      ),
      CustomerIdentity: customerIdentityOperation(
        (id) => consents.get(id) ?? router.consentSources.map((f) => f(id)).find((c) => c) ?? null,
      ),
    },
  });
  router.register(productsModule(catalog));
  router.register(metafieldsModule(catalog, metafieldStore));
  const metaobjectStore = new MetaobjectStore(options.grantedMetaobjects);
  router.register(metaobjectsModule(metaobjectStore));
  router.register(bulk.module());
  for (const m of options.modules ?? []) router.register(m);

  async function graphql(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const token = tokens.admit(String(req.headers["x-shopify-access-token"] ?? ""));
    if (token.verdict !== "ok") {
      // The body Shopify sends for a bad, expired or revoked token.
      sendJson(res, 401, INVALID_TOKEN_BODY);
      return;
    }
    let body: { query?: unknown; variables?: unknown; operationName?: unknown };
    try {
      body = JSON.parse(await readBody(req)) as typeof body;
    } catch {
      sendJson(res, 400, { errors: [{ message: "Bad Request: body is not JSON" }] });
      return;
    }
    const document = typeof body.query === "string" ? body.query : "";
    const variables = (body.variables && typeof body.variables === "object" ? body.variables : {}) as Record<
      string,
      unknown
    >;
    const name = requestOperationName(document, body.operationName);
    const record: RequestRecord = { operationName: name, variables, status: 200, throttled: false, token };
    if (options.keepHistory !== false) requests.push(record);

    if (addressRefused) {
      // Shopify documents only the status; the body is a plausible one of its REST-style error answers.
      record.status = 403;
      sendJson(res, 403, { errors: "[API] This request's source IP address is not in the app's IP allowlist." });
      return;
    }
    const failure = failures.shift();
    if (failure) {
      record.status = failure.status;
      res.writeHead(failure.status, { "Content-Type": "application/json" });
      res.end(failure.body ?? JSON.stringify({ errors: "Internal Server Error" }));
      return;
    }

    // Shopify validates and costs the document before anything else: an invalid one, or one over
    // the single-query limit, is refused without touching the bucket.
    let requested: number;
    try {
      requested = requestedQueryCost(schema, checkedDocument(schema, document), variables, name);
    } catch (error) {
      if (!(error instanceof QueryRefused)) throw error;
      sendJson(res, 200, { errors: error.errors });
      return;
    }
    record.requestedCost = requested;
    if (requested > MAX_QUERY_COST) {
      sendJson(res, 200, { errors: [maxCostExceeded(requested)] });
      return;
    }
    const handler = router.operation(name, document);
    if (!handler) {
      const errors: GraphqlError[] = [
        {
          message: `simulated store: no handler for operation ${name ?? "(anonymous)"}`,
          extensions: { code: "UNKNOWN_OPERATION" },
        },
      ];
      sendJson(res, 200, { errors });
      return;
    }
    if (!bucket.canPay(requested)) {
      record.throttled = true;
      sendJson(res, 200, {
        errors: [
          {
            message: "Throttled",
            extensions: { code: "THROTTLED", documentation: "https://shopify.dev/api/usage/rate-limits" },
          },
        ],
        extensions: { cost: { requestedQueryCost: requested, actualQueryCost: null, throttleStatus: bucket.status() } },
      });
      return;
    }
    const result = await handler.handle(variables, ctx);
    const actual = result.actualCost ?? requested;
    bucket.charge(actual);
    sendJson(res, 200, {
      ...(result.data !== undefined ? { data: result.data } : {}),
      ...(result.errors ? { errors: result.errors } : {}),
      extensions: { cost: { requestedQueryCost: requested, actualQueryCost: actual, throttleStatus: bucket.status() } },
    });
  }

  async function bulkFile(req: IncomingMessage, res: ServerResponse, n: number): Promise<void> {
    const op = bulk.get(n);
    bulkDownloads.push({ n, sentAccessToken: req.headers["x-shopify-access-token"] !== undefined });
    if (!op || op.status !== "COMPLETED") {
      // What Google Cloud Storage answers for a missing or expired signed URL.
      res.writeHead(403, { "Content-Type": "application/xml" });
      res.end("<?xml version='1.0' encoding='UTF-8'?><Error><Code>AccessDenied</Code></Error>");
      return;
    }
    res.writeHead(200, { "Content-Type": "application/jsonl" });
    await pipeline(Readable.from(bulk.lines(n)), res);
  }

  async function tokenEndpoint(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let body: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(await readBody(req, 100_000));
      body = parsed && typeof parsed === "object" ? (parsed as Record<string, unknown>) : {};
    } catch {
      sendJson(res, 400, { error: "invalid_request" });
      return;
    }
    const answer = tokens.tokenEndpoint(body);
    sendJson(res, answer.status, answer.body);
  }

  async function serve(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    if (req.method === "POST" && /^\/admin\/api\/[^/]+\/graphql\.json$/.test(path)) return graphql(req, res);
    if (req.method === "POST" && path === "/admin/oauth/access_token") return tokenEndpoint(req, res);
    const bulkMatch = /^\/bulk\/(\d+)\.jsonl$/.exec(path);
    if (req.method === "GET" && bulkMatch) return bulkFile(req, res, Number(bulkMatch[1]));
    sendJson(res, 404, { errors: "Not Found" });
  }

  return {
    serve,
    setOrigin: (origin) => {
      ctx.origin = origin;
    },
    dispose: () => bulk.close(),
    shop,
    accessToken,
    apiVersion,
    primaryDomain,
    requests,
    installSession: (lifetimeMs) => tokens.install(lifetimeMs),
    revokeRefreshTokens: () => tokens.revokeRefreshTokens(),
    expireAccessTokens: () => tokens.expireAccessTokens(),
    revokeTokens: () => tokens.revokeAll(),
    setAfter2027: (on) => {
      tokens.after2027 = on;
    },
    setTokenLifetimeMs: (ms) => {
      tokens.tokenLifetimeMs = ms;
    },
    tokenStats: tokens.stats,
    tokenUses: tokens.uses,
    webhookDeliveries,
    bulkDownloads,
    addProduct: (patch) => catalog.add(patch),
    updateProduct: (id, patch) => catalog.update(id, patch),
    deleteProduct: (id) => {
      const gone = catalog.delete(id);
      if (gone) metafieldStore.dropOwner(ProductCatalog.gid(id));
      return gone;
    },
    product: (id) => catalog.get(id),
    products: () => [...catalog.iterate()],
    register: (m) => router.register(m),
    injectFailure: ({ status, body, count = 1 }) => {
      for (let i = 0; i < count; i++) failures.push({ status, body });
    },
    setAvailablePoints: (points) => bucket.set(points),
    failNextBulkOperation: (errorCode = "INTERNAL_SERVER_ERROR") => bulk.failNextOperation(errorCode),
    refuseAddress: (refused) => {
      addressRefused = refused;
    },
    disableBulk: (as = "error") => bulk.refuse(as),
    enableBulk: () => bulk.refuse(null),
    bulkOperations: () => bulk.all(),
    finishBulkOperations: () => bulk.finishRunning(),
    appInstallationId: APP_INSTALLATION_GID,
    metafields: (ownerId, namespace) => metafieldStore.list(ownerId, namespace),
    metafield: (ownerId, namespace, key) => metafieldStore.get(ownerId, namespace, key),
    metafieldOwners: () => metafieldStore.owners(),
    metafieldDefinitions: () => metafieldStore.allDefinitions(),
    setMetafields: (inputs) => {
      const { written, userErrors } = metafieldStore.set(inputs);
      if (userErrors.length) throw new Error(`simulated store: ${userErrors.map((e) => e.message).join("; ")}`);
      return written;
    },
    flowTriggers: metafieldStore.flowTriggers,
    metaobjects: (type) => metaobjectStore.list(type),
    metaobjectDefinitionEnabled: (type) => metaobjectStore.enabled(type),
    grantStandardMetaobject: (type, on) => metaobjectStore.grant(type, on),
    deleteMetaobjectDefinition: (type) => metaobjectStore.deleteDefinition(type),
    setCustomerConsent: (c) => consents.set(c.customerId, structuredClone(c)),
    operationCount: (name) =>
      requests.filter((r) => r.operationName === name && r.status === 200 && !r.throttled).length,
  };
}

/**
 * Answers a request that failed after the handler started (a client that stopped reading a bulk
 * file mid-way ends here too: nothing to answer then).
 */
export function answerFailure(res: ServerResponse, error: unknown): void {
  if (!res.headersSent) sendJson(res, 500, { errors: error instanceof Error ? error.message : String(error) });
  else res.destroy();
}

export function notFound(res: ServerResponse): void {
  sendJson(res, 404, { errors: "Not Found" });
}

export async function startSimulatedStore(options: SimulatedStoreOptions = {}): Promise<SimulatedStore> {
  const store = createShopStore(options);
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    // SHOPIFY_ORIGIN's template form: the same shop under /shops/{shop}; another shop is not here.
    const prefixed = /^\/shops\/([^/]+)(\/.*)$/.exec(url.pathname);
    if (prefixed && decodeURIComponent(prefixed[1]) !== store.shop) return notFound(res);
    store.serve(req, res, prefixed ? prefixed[2] : url.pathname).catch((error: unknown) => answerFailure(res, error));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const address = server.address() as AddressInfo;
  const origin = `http://${address.address}:${address.port}`;
  store.setOrigin(origin);
  const { serve: _serve, setOrigin: _setOrigin, dispose, ...api } = store;
  return {
    ...api,
    origin,
    shopOrigin: `${origin}/shops/${store.shop}`,
    originTemplate: `${origin}/shops/{shop}`,
    graphqlEndpoint: `${origin}/admin/api/${store.apiVersion}/graphql.json`,
    async close() {
      dispose();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
