import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../../../test/helpers/stack";
import { eventually } from "../../../test/helpers/contexts";
import { redisUrl } from "../../../test/helpers/redis";
import { startSimulatedStore, type SimulatedStore } from "../../../sandbox/simulated-store";
import { runCli } from "./main";
import type { CliIo } from "./command";
import { createReviewsClient } from "../reviews";
import { defaultSettings, parseSettings } from "../settings/settings";
import { legacyId } from "../mapping/keys";
import { seedOfflineSession } from "../../../test/helpers/offline-session";

// `settings show` / `settings set` on real parts: the emulator over HTTP (reviews counted through
// the app's client), a SQLite database of this file's own, real Redis under a private prefix and
// the real workers running the catalog sync a variant key change starts (from a simulated store).

let s: Stack;
let store: SimulatedStore;
const SHOP = "settings-cli.myshopify.com";
const SECRET = "acme-secret-0123456789";

beforeAll(async () => {
  store = await startSimulatedStore({ shop: SHOP, products: 8, seed: 5, bulkDurationMs: 50 });
  s = await startStack("settings-cli", { SHOPIFY_ORIGIN: store.originTemplate });
  await s.connect(SHOP);
  await seedOfflineSession(s.t.db, store, { shop: SHOP });
});
afterAll(async () => {
  await s.close();
  await store.close();
});

function cli(): CliIo & { stdout: string[]; stderr: string[]; text(): string } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const env = {
    ...process.env,
    DATABASE_URL: s.t.url,
    REDIS_URL: redisUrl(),
    REDIS_PREFIX: s.prefix,
    REVIEWS_API_URL: s.emu.baseUrl,
    REVIEWS_AUTH_URL: s.emu.authUrl,
    REVIEWS_RATE_URL: s.emu.rateUrl,
    SHOP_CACHE_MS: "0",
  };
  return {
    stdout,
    stderr,
    env,
    out: (l) => stdout.push(l),
    err: (l) => stderr.push(l),
    text: () => [...stdout, ...stderr].join("\n"),
  };
}

const storedText = async () => (await s.t.db.shop.findUniqueOrThrow({ where: { domain: SHOP } })).settings;
const stored = async () => parseSettings(await storedText());
const catalogRuns = async () => s.t.db.syncRun.count({ where: { kind: "catalog" } });
const reviewCalls = (since: number) => s.emu.control.requests(since).filter((r) => r.path === "/api/acme/reviews/all");
const set = (args: string[], io = cli()) =>
  runCli(["settings", "set", "--shop", SHOP, ...args], io).then((code) => ({ code, io }));

async function runFrom(io: { stdout: string[] }) {
  const id = /catalog sync \(run ([^)]+)\)/.exec(io.stdout.join("\n"))?.[1];
  expect(id).toBeDefined();
  const done = await eventually(
    () => s.t.db.syncRun.findUniqueOrThrow({ where: { id } }),
    (r) => ["completed", "failed", "cancelled"].includes(r.status),
    60_000,
  );
  expect(done.error).toBeNull();
  expect(done.status).toBe("completed");
  return done;
}

/** Every store variant with a SKU is among its product's `variants` in the service (under `key`). */
function serviceVariantsOf(key: "id" | "sku") {
  const products = s.emu.control.state("acme").products;
  return store.products().flatMap((p) => {
    const service = products.find((x) => x.sku === legacyId(p.id));
    return p.variants
      .filter((v) => v.sku)
      .map((v) => ({ expected: key === "sku" ? v.sku : legacyId(v.id), has: service?.variants ?? [] }));
  });
}

describe("settings CLI", () => {
  it("GIVEN settings show THEN every setting shows by path, as text or JSON, with nothing secret", async () => {
    const io = cli();
    expect(await runCli(["settings", "show", "--shop", SHOP], io)).toBe(0);
    const text = io.stdout.join("\n");
    // An enum value with the admin's words for it (setting-words.ts).
    expect(text).toMatch(/catalog\.variantKey\s+id "Variant id \(stable\)"\n/);
    expect(text).toMatch(/orders\.optOut\.email\s+unsubscribed "Every buyer who has not unsubscribed"\n/);
    expect(text).toMatch(/orders\.deliveredAfterDays\s+null\n/);
    expect(text).toMatch(/orders\.exclude\.sourceNames\s+\(none\)\n/);
    expect(text).not.toContain(SECRET);

    const json = cli();
    expect(await runCli(["settings", "show", "--shop", SHOP, "--json"], json)).toBe(0);
    expect(JSON.parse(json.stdout.join("\n"))).toEqual(defaultSettings);
  });

  it("GIVEN valid values of each type THEN they are parsed, saved together, shown against the defaults, and no sync starts", async () => {
    const runs = await catalogRuns();
    const since = s.emu.control.lastRequestSeq();
    const { code, io } = await set([
      "catalog.defaultCategory=Gifts",
      "orders.deliveredAfterDays=14",
      "orders.exclude.sourceNames=pos, shopify_draft_order",
      "orders.exclude.testOrders=false",
      "orders.seller.mode=property",
      "orders.seller.property=Seller",
    ]);
    expect(io.stderr).toEqual([]);
    expect(code).toBe(0);
    expect(io.stdout.join("\n")).toContain("orders.deliveredAfterDays: null -> 14");
    const after = await stored();
    expect(after.catalog.defaultCategory).toBe("Gifts");
    expect(after.orders).toMatchObject({
      deliveredAfterDays: 14,
      exclude: { testOrders: false, giftCardOnly: true, sourceNames: ["pos", "shopify_draft_order"] },
      seller: { mode: "property", property: "Seller" },
    });
    expect(await catalogRuns()).toBe(runs);
    expect(reviewCalls(since)).toHaveLength(0);

    expect((await set(["orders.deliveredAfterDays=null", "orders.exclude.sourceNames="])).code).toBe(0);
    expect((await stored()).orders).toMatchObject({ deliveredAfterDays: null, exclude: { sourceNames: [] } });

    const show = cli();
    await runCli(["settings", "show", "--shop", SHOP], show);
    expect(show.stdout.join("\n")).toMatch(/catalog\.defaultCategory\s+Gifts\s+\(default: General\)/);
  });

  it.each([
    [["catalog.nope=1"], /unknown setting "catalog\.nope"\. Settings: catalog\.variantKey, catalog\.defaultCategory/],
    [["catalog.variantKey=skus"], /catalog\.variantKey: "skus" is not allowed .*; allowed: one of id, sku/],
    [
      ["orders.deliveredAfterDays=120"],
      /orders\.deliveredAfterDays: "120" is not allowed .*<=90.*; allowed: a whole number from 1 to 90, or null/,
    ],
    [["orders.deliveredAfterDays=soon"], /orders\.deliveredAfterDays: "soon" is not allowed .*expected number/],
    [
      ["orders.exclude.testOrders=maybe"],
      /orders\.exclude\.testOrders: "maybe" is not allowed.*; allowed: true or false/,
    ],
    [
      ["catalog.specificationMetafields=custom.material,nodot"],
      /catalog\.specificationMetafields: .*allowed: a comma-separated list/,
    ],
    // One good value beside a bad one: neither is saved.
    [
      ["catalog.defaultCategory=Shoes", "orders.backfillDays=61"],
      /orders\.backfillDays: "61" is not allowed.*from 0 to 60/,
    ],
    [
      ["orders.seller.mode=none", "orders.seller.property=x"],
      /orders\.seller\.property is not kept: it is used only when orders\.seller\.mode=property/,
    ],
    [["orders.exclude=web"], /orders\.exclude is a group of settings; set its fields: orders\.exclude\.testOrders/],
    [["catalog.variantKey"], /expected <path>=<value>, got "catalog\.variantKey"/],
    [["catalog.variantKey=sku", "catalog.variantKey=id"], /catalog\.variantKey is given twice/],
    [[], /nothing to set/],
  ])(
    "GIVEN a bad path or value %j THEN exit 2, the path and what is allowed named, and nothing saved",
    async (args, message) => {
      const before = await storedText();
      const since = s.emu.control.lastRequestSeq();
      const { code, io } = await set(args);
      expect(io.stderr.join("\n")).toMatch(message);
      expect(code).toBe(2);
      expect(await storedText()).toBe(before);
      expect(reviewCalls(since)).toHaveLength(0);
    },
  );

  it("GIVEN the variant key it already has THEN nothing is asked, saved or started", async () => {
    const runs = await catalogRuns();
    const since = s.emu.control.lastRequestSeq();
    const { code, io } = await set(["catalog.variantKey=id"]);
    expect(code).toBe(0);
    expect(io.stdout.join("\n")).toContain("Nothing to change");
    expect(reviewCalls(since)).toHaveLength(0);
    expect(await catalogRuns()).toBe(runs);
  });

  it("GIVEN no reviews in the service WHEN the variant key changes THEN it is saved with a short note and a full catalog sync sends the new keys", async () => {
    expect(s.emu.control.state("acme").reviews).toHaveLength(0);
    const since = s.emu.control.lastRequestSeq();
    const { code, io } = await set(["catalog.variantKey=sku"]);
    expect(io.stderr).toEqual([]);
    expect(code).toBe(0);
    expect(reviewCalls(since).map((r) => r.status)).toEqual([200]);
    expect(io.stdout.join("\n")).toContain("holds no reviews for account acme");
    expect(io.stdout.join("\n")).toContain("catalog.variantKey: id -> sku");
    expect(io.stdout.join("\n")).toMatch(
      /Started a full catalog sync \(run [^)]+\) so the service gets the new variant keys/,
    );
    expect((await stored()).catalog.variantKey).toBe("sku");
    await runFrom(io);
    const variants = serviceVariantsOf("sku");
    expect(variants.length).toBeGreaterThan(0);
    for (const v of variants) expect(v.has).toContain(v.expected);
  });

  it("GIVEN reviews in the service WHEN the variant key changes THEN a loud warning with the count, exit 1, nothing saved or started", async () => {
    const account = {
      customer: "acme",
      clientId: "acme-client",
      clientSecret: SECRET,
      apiUrl: s.emu.baseUrl,
      authUrl: s.emu.authUrl,
      rateUrl: s.emu.rateUrl,
    };
    const client = createReviewsClient({ account });
    const sku = legacyId(store.products()[0].id);
    await client.storefront.submitReview(sku, { userId: "u-1", email: "ada@example.com", rating: 5, text: "Lovely" });
    await client.storefront.submitReview(sku, { userId: "u-2", email: "bob@example.com", rating: 2, text: "Meh" });

    const runs = await catalogRuns();
    const before = await storedText();
    const { code, io } = await set(["catalog.variantKey=id"]);
    const err = io.stderr.join("\n");
    expect(err).toContain('WARNING: changing catalog.variantKey from "sku" to "id" ORPHANS EXISTING REVIEWS');
    expect(err).toContain("The reviews service holds 2 review(s) for account acme");
    expect(err).toContain("carry variant ids instead of variant SKUs, so the reviews collected");
    expect(err).toContain("under the old variant keys no longer match the variants and order items");
    expect(err).toContain("Not saved. To change it anyway, run the same command with --force.");
    expect(code).toBe(1);
    expect(await storedText()).toBe(before);
    expect(await catalogRuns()).toBe(runs);
  });

  it("GIVEN the service cannot answer THEN the change is refused with the reason, unless --force", async () => {
    const before = await storedText();
    s.emu.control.setFaults({ errorRate: 1, errorStatus: 503, paths: "/reviews/all" });
    try {
      const { code, io } = await set(["catalog.variantKey=id"]);
      expect(io.stderr.join("\n")).toMatch(/Cannot tell whether changing catalog\.variantKey orphans reviews: .*503/);
      expect(code).toBe(1);
      expect(await storedText()).toBe(before);
    } finally {
      s.emu.control.clearFaults();
    }
  });

  it("GIVEN reviews and --force THEN the warning still shows, the change is saved and a full catalog sync starts", async () => {
    const { code, io } = await set(["catalog.variantKey=id", "--force"]);
    expect(io.stderr.join("\n")).toContain("ORPHANS EXISTING REVIEWS");
    expect(io.stderr.join("\n")).toContain("--force given: saving anyway.");
    expect(code).toBe(0);
    expect((await stored()).catalog.variantKey).toBe("id");
    expect(io.stdout.join("\n")).toMatch(/Started a full catalog sync \(run [^)]+\)/);
    await runFrom(io);
    for (const v of serviceVariantsOf("id")) expect(v.has).toContain(v.expected);
  });

  it("GIVEN settings set --help THEN every settable path is listed with what it accepts", async () => {
    const io = cli();
    expect(await runCli(["settings", "set", "--help"], io)).toBe(0);
    const text = io.stdout.join("\n");
    expect(text).toMatch(/catalog\.variantKey\s+one of id, sku/);
    expect(text).toMatch(/orders\.seller\.property\s+text \(used when orders\.seller\.mode=property\)/);
    expect(text).toContain("--force");
  });
});
