// The control surface of the emulator, for tests, demos and benchmarks: in process (`EmulatorControl`)
// and over HTTP under `/__emulator` (JSON, no auth, never logged, never subject to faults).
//
//   POST   /__emulator/faults               set faults (replaces the previous set), GET shows them
//   DELETE /__emulator/faults               clear faults
//   GET    /__emulator/requests?since=<seq> `{requests: [...]}` newest last; DELETE clears
//   GET    /__emulator/state?customer=<c>   stored state of one customer (all customers without it)
//   POST   /__emulator/reset                clear state, faults, log and clock offset (accounts and
//                                           issued tokens are kept, so a client's cached token works)
//   POST   /__emulator/seed                 `{customer?, products?}` deterministic demo data
//   POST   /__emulator/seed-nps             `{customer, count}` survey answers up to count, kept state
//   POST   /__emulator/accounts             add an account `{customer, clientId, clientSecret}`
//   POST   /__emulator/reviews/:id/publish  moderation shortcut (the Admin API one also exists)
//   POST   /__emulator/reviews/:id/reply    `{text}` store reply (no Admin API for it in the spec)
//   POST   /__emulator/questions/:id/answer `{text}` reply and publish a question
//   POST   /__emulator/clock                `{advanceMs}` move the emulator's clock forward
//   PUT    /__emulator/settings/:customer   partial customer settings (storeUrl, topRated, ...)
//   POST   /__emulator/forget               `{customer, skus?, orderIds?}` drop those products and
//                                           orders (a reset account or lost data); reviews stay
//   GET    /__emulator/health               `{ok: true, origin, baseUrl, authUrl, rateUrl}`
import { z } from "zod";
import { accountSchema, type AuthService, type EmulatorAccount } from "./auth";
import type { Clock } from "./clock";
import { faultConfigSchema, type FaultConfig, type Faults } from "./faults";
import { json, noBody, notFound, parseWith, queryInt, queryString } from "./http";
import type { RequestLog, RequestLogEntry } from "./request-log";
import type { Route } from "./router";
import { seedCustomer, type SeedOptions, type SeedSummary } from "./seed";
import { seedProductReviews, type SeedReviewsOptions, type SeedReviewsSummary } from "./seed-reviews";
import { seedNpsAnswers, type SeedNpsOptions } from "./seed-nps";
import type { EmulatorUrls, Services } from "./services";
import { CustomerState, type Store } from "./store";
import type { CustomerSettings, CustomerSnapshot, StoredQuestion, StoredReview } from "./types";

export interface EmulatorControl {
  /** Replaces the active faults (counters restart); `expireTokensNow` acts at once. */
  setFaults(faults: FaultConfig): void;
  clearFaults(): void;
  getFaults(): ReturnType<Faults["get"]>;
  /** Logged requests with `seq > since`, newest last. */
  requests(since?: number): RequestLogEntry[];
  clearRequests(): void;
  /** Sequence number of the newest logged request (pass it as `since` to see only later ones). */
  lastRequestSeq(): number;
  state(customer: string): CustomerSnapshot;
  customers(): string[];
  reset(): void;
  seed(opts?: SeedOptions): SeedSummary;
  /** Adds reviews to products the customer already has (the offline demo), keeping everything else. */
  seedReviews(opts: SeedReviewsOptions): SeedReviewsSummary;
  /** Adds survey (NPS) answers up to `count` for the customer, keeping everything else. */
  seedNps(opts: SeedNpsOptions): { customer: string; nps: number };
  addAccount(account: EmulatorAccount): void;
  expireTokens(): void;
  advanceClock(ms: number): void;
  publishReview(reviewId: string): StoredReview;
  replyToReview(reviewId: string, text: string): StoredReview;
  answerQuestion(questionId: string, text: string): StoredQuestion;
  updateSettings(customer: string, patch: Partial<CustomerSettings>): CustomerSettings;
  /**
   * Drops products and orders of a customer, as a reset account or lost data would: the service no
   * longer knows them (reviews stay, and show no product). Answers what was dropped.
   */
  forget(customer: string, what: { skus?: string[]; orderIds?: string[] }): { skus: string[]; orderIds: string[] };
}

interface Deps {
  store: Store;
  auth: AuthService;
  clock: Clock;
  faults: Faults;
  log: RequestLog;
  urls: EmulatorUrls;
}

function findReview(store: Store, id: string): { cs: CustomerState; review: StoredReview } {
  for (const name of store.customers()) {
    const cs = store.customer(name);
    const review = cs.reviews.get(id);
    if (review) return { cs, review };
  }
  throw notFound(`review ${id} not found`);
}

const settingsPatchSchema = z
  .object({
    storeUrl: z.url(),
    storeName: z.string(),
    logo: z.string().nullable(),
    minStarsHighlightPDP: z.number(),
    enableStoreReview: z.boolean(),
    topRated: z.object({ skus: z.array(z.string()), badgeLabel: z.string() }),
    forbiddenWords: z.array(z.string()),
    syndicationStores: z.record(z.string(), z.object({ name: z.string(), logo: z.string().nullable() })),
  })
  .partial();

export function createControl(d: Deps): EmulatorControl {
  const control: EmulatorControl = {
    setFaults(faults) {
      const parsed = faultConfigSchema.parse(faults);
      if (parsed.expireTokensNow) d.auth.expireAll();
      d.faults.set(parsed);
    },
    clearFaults: () => d.faults.clear(),
    getFaults: () => d.faults.get(),
    requests: (since) => d.log.list(since),
    clearRequests: () => d.log.clear(),
    lastRequestSeq: () => d.log.lastSeq(),
    // Reading the state of an unknown customer must not create it (it would become "known" to the
    // Client API).
    state: (customer) => (d.store.has(customer) ? d.store.customer(customer) : new CustomerState(customer)).snapshot(),
    customers: () => d.store.customers(),
    reset() {
      d.store.clear();
      d.faults.clear();
      d.log.clear();
      d.clock.reset();
      d.store.changed();
    },
    seed(opts = {}) {
      const summary = seedCustomer(d.store, d.urls.origin, opts);
      d.store.changed();
      return summary;
    },
    seedReviews: (opts) => seedProductReviews(d.store, opts),
    seedNps: (opts) => seedNpsAnswers(d.store, opts),
    addAccount(account) {
      d.auth.addAccount(accountSchema.parse(account));
      d.store.changed();
    },
    expireTokens: () => d.auth.expireAll(),
    advanceClock: (ms) => d.clock.advance(ms),
    publishReview(reviewId) {
      const { cs, review } = findReview(d.store, reviewId);
      const now = d.clock.iso();
      const next = { ...review, status: "published" as const, moderatedAt: now, updated: now, __v: review.__v + 1 };
      cs.putReview(next);
      d.store.changed();
      return structuredClone(next);
    },
    replyToReview(reviewId, text) {
      const { cs, review } = findReview(d.store, reviewId);
      const next = {
        ...review,
        reply: { created: d.clock.iso(), text, helpful: 0, unhelpful: 0 },
        __v: review.__v + 1,
      };
      cs.putReview(next);
      d.store.changed();
      return structuredClone(next);
    },
    answerQuestion(questionId, text) {
      for (const name of d.store.customers()) {
        const q = d.store.customer(name).questions.get(questionId);
        if (q) {
          q.reply = { created: d.clock.iso(), text, helpful: 0, unhelpful: 0 };
          q.status = "published";
          q.__v++;
          d.store.changed();
          return structuredClone(q);
        }
      }
      throw notFound(`question ${questionId} not found`);
    },
    updateSettings(customer, patch) {
      const cs = d.store.customer(customer);
      cs.settings = { ...cs.settings, ...settingsPatchSchema.parse(patch) };
      d.store.changed();
      return structuredClone(cs.settings);
    },
    forget(customer, what) {
      const cs = d.store.customer(customer);
      const skus = (what.skus ?? []).filter((sku) => cs.products.delete(sku));
      const orderIds = (what.orderIds ?? []).filter((id) => cs.orders.delete(id));
      d.store.changed();
      return { skus, orderIds };
    },
  };
  return control;
}

const textSchema = z.object({ text: z.string().min(1) });
const seedReviewsSchema = z.object({ customer: z.string().min(1), skus: z.array(z.string().min(1)).min(1).max(1000) });
const forgetSchema = z.object({
  customer: z.string().min(1),
  skus: z.array(z.string().min(1)).optional(),
  orderIds: z.array(z.string().min(1)).optional(),
});
const seedNpsSchema = z.object({ customer: z.string().min(1), count: z.number().int().min(0).max(20_000) });
const seedSchema = z.object({
  customer: z.string().min(1).optional(),
  products: z.number().int().min(1).max(500).optional(),
});

export function controlRoutes(control: EmulatorControl, urls: EmulatorUrls): Route<Services>[] {
  const r = (
    method: Route<Services>["method"],
    pattern: string,
    handler: Route<Services>["handler"],
  ): Route<Services> => ({
    method,
    pattern: `/__emulator${pattern}`,
    auth: "none",
    handler,
  });
  return [
    r("GET", "/health", () => json(200, { ok: true, ...urls })),
    r("POST", "/faults", (ctx) => {
      control.setFaults(parseWith(faultConfigSchema, ctx.body ?? {}));
      return json(200, control.getFaults());
    }),
    r("GET", "/faults", () => json(200, control.getFaults())),
    r("DELETE", "/faults", () => {
      control.clearFaults();
      return noBody();
    }),
    r("GET", "/requests", (ctx) =>
      json(200, { requests: control.requests(queryInt(ctx.query, "since", { min: 0, fallback: 0 })) }),
    ),
    r("DELETE", "/requests", () => {
      control.clearRequests();
      return noBody();
    }),
    r("GET", "/state", (ctx) => {
      const customer = queryString(ctx.query, "customer");
      if (customer !== undefined) return json(200, control.state(customer));
      return json(200, { customers: Object.fromEntries(control.customers().map((c) => [c, control.state(c)])) });
    }),
    r("POST", "/reset", () => {
      control.reset();
      return noBody();
    }),
    r("POST", "/seed", (ctx) => json(200, control.seed(parseWith(seedSchema, ctx.body ?? {})))),
    r("POST", "/seed-reviews", (ctx) => json(200, control.seedReviews(parseWith(seedReviewsSchema, ctx.body ?? {})))),
    r("POST", "/seed-nps", (ctx) => json(200, control.seedNps(parseWith(seedNpsSchema, ctx.body ?? {})))),
    r("POST", "/accounts", (ctx) => {
      control.addAccount(parseWith(accountSchema, ctx.body));
      return noBody();
    }),
    r("POST", "/reviews/:id/publish", (ctx) => json(200, control.publishReview(ctx.params.id))),
    r("POST", "/reviews/:id/reply", (ctx) =>
      json(200, control.replyToReview(ctx.params.id, parseWith(textSchema, ctx.body).text)),
    ),
    r("POST", "/questions/:id/answer", (ctx) =>
      json(200, control.answerQuestion(ctx.params.id, parseWith(textSchema, ctx.body).text)),
    ),
    r("POST", "/clock", (ctx) => {
      const { advanceMs } = parseWith(z.object({ advanceMs: z.number().min(0) }), ctx.body ?? {});
      control.advanceClock(advanceMs);
      return noBody();
    }),
    r("POST", "/forget", (ctx) => {
      const { customer, ...what } = parseWith(forgetSchema, ctx.body ?? {});
      return json(200, control.forget(customer, what));
    }),
    r("PUT", "/settings/:customer", (ctx) =>
      json(200, control.updateSettings(ctx.params.customer, parseWith(settingsPatchSchema, ctx.body ?? {}))),
    ),
  ];
}
