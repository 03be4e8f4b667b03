import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../helpers/stack";
import { adminForm, adminRequest } from "../helpers/session-token";
import { QueueEvents } from "bullmq";
import { eventually } from "../helpers/contexts";
import { QueueName } from "../../app/.server/queues/names";
import { madeUpInstall, seedOfflineSession } from "../helpers/offline-session";
import { BACKSYNC } from "../../app/.server/jobs";

// The admin's loaders and actions called as Remix calls them, with a signed session token and the
// shop's stored session, against the emulator: bad input is named field by field and saves
// nothing, refused credentials save nothing, the secret never comes back.

const SHOP = "routes-admin.myshopify.com";
const SECRET = "acme-secret-0123456789";
let s: Stack;

beforeAll(async () => {
  s = await startStack("admin-routes");
  await seedOfflineSession(s.t.db, madeUpInstall(SHOP, "shpat_routes"), { scope: s.config.SCOPES });
}, 60_000);
afterAll(async () => {
  await s?.close();
});

const home = () => import("../../app/routes/app._index");
const settings = () => import("../../app/routes/app.settings");
const args = (request: Request) => ({ request, params: {}, context: {} });

describe("home: credentials", () => {
  it("GIVEN fields missing or malformed THEN each is named and nothing is saved", async () => {
    const { action } = await home();
    const result = await action(
      args(
        adminForm(SHOP, "/app?index", {
          intent: "credentials",
          customerKey: "has space",
          clientId: "",
          clientSecret: "",
          apiUrl: "ftp://x",
        }),
      ),
    );
    expect(result).toMatchObject({
      ok: false,
      fieldErrors: {
        customerKey: { key: "creds.invalidCustomer" },
        clientId: { key: "creds.required" },
        clientSecret: { key: "creds.required" },
        apiUrl: { key: "creds.invalidUrl" },
      },
    });
    expect((await s.web.shops.status(SHOP)).connected).toBe(false);
  });

  it("GIVEN credentials the service refuses THEN the merchant reads why and nothing is saved", async () => {
    const { action } = await home();
    const since = s.emu.control.lastRequestSeq();
    const result = await action(
      args(
        adminForm(SHOP, "/app?index", {
          intent: "credentials",
          customerKey: "acme",
          clientId: "acme-client",
          clientSecret: "wrong",
        }),
      ),
    );
    expect(result).toMatchObject({ ok: false, formError: { key: "error.auth" } });
    expect(s.emu.control.requests(since).filter((r) => r.path.endsWith("/oauth/token"))).toHaveLength(1);
    expect((await s.web.shops.status(SHOP)).connected).toBe(false);
  });

  it("GIVEN an unreachable service address THEN it says the service did not answer and nothing is saved", async () => {
    const { action } = await home();
    const result = await action(
      args(
        adminForm(SHOP, "/app?index", {
          intent: "credentials",
          customerKey: "acme",
          clientId: "acme-client",
          clientSecret: SECRET,
          authUrl: "http://127.0.0.1:9/auth",
        }),
      ),
    );
    expect(result).toMatchObject({ ok: false, formError: { key: "error.unreachable" } });
    expect((await s.web.shops.status(SHOP)).connected).toBe(false);
  });

  it("GIVEN good credentials THEN the shop connects, the first syncs start, and the secret never comes back", async () => {
    const { action, loader } = await home();
    const result = await action(
      args(
        adminForm(SHOP, "/app?index", {
          intent: "credentials",
          customerKey: "acme",
          clientId: "acme-client",
          clientSecret: SECRET,
        }),
      ),
    );
    expect(result).toMatchObject({ ok: true, message: { key: "creds.connected" } });
    const shop = await s.web.shops.get(SHOP);
    expect(await s.t.db.syncRun.count({ where: { shopId: shop.id } })).toBe(2);
    const page = await loader(args(adminRequest(SHOP, "/app")));
    expect(page).toMatchObject({ connected: true, customerKey: "acme", steps: { credentials: { done: true } } });
    expect(JSON.stringify(page)).not.toContain(SECRET);
    expect(JSON.stringify(page)).not.toContain(shop.clientSecretEncrypted!);

    // Saving again with the secret left empty keeps the stored one (it is write-only).
    const again = await action(
      args(
        adminForm(SHOP, "/app?index", {
          intent: "credentials",
          customerKey: "acme",
          clientId: "acme-client",
          clientSecret: "",
        }),
      ),
    );
    expect(again).toMatchObject({ ok: true, message: { key: "creds.saved" } });
    expect((await s.web.shops.account(SHOP, { apiUrl: "", authUrl: "", rateUrl: "" })).clientSecret).toBe(SECRET);
  });
});

describe("settings", () => {
  it("GIVEN every setting THEN the loader lists each path of the settings module with its value", async () => {
    const { loader } = await settings();
    const data = await loader(args(adminRequest(SHOP, "/app/settings")));
    const { settingSpecs } = await import("../../app/.server/settings/settings-paths");
    expect(data.fields.map((f) => f.path)).toEqual(settingSpecs.map((spec) => spec.path));
    expect(data.values["orders.backfillDays"]).toBe("60");
  });

  it("GIVEN bad values THEN each field is named and nothing is saved", async () => {
    const { action } = await settings();
    const before = await s.web.shops.settings(SHOP);
    const result = await action(
      args(
        adminForm(SHOP, "/app/settings", {
          "orders.deliveredAfterDays": "500",
          "catalog.variantKey": "bogus",
          "catalog.specificationMetafields": "no-dot",
          "catalog.defaultCategory": "Gifts",
        }),
      ),
    );
    expect(result).toMatchObject({
      ok: false,
      fieldErrors: {
        "orders.deliveredAfterDays": { key: "settings.invalid.range", params: { min: 1, max: 90 } },
        "catalog.variantKey": { key: "settings.invalid.enum" },
        "catalog.specificationMetafields": { key: "settings.invalid.pattern" },
      },
    });
    expect(await s.web.shops.settings(SHOP)).toEqual(before);
  });

  it("GIVEN good values THEN they are saved, empty meaning off where a setting can be off", async () => {
    const { action } = await settings();
    const result = await action(
      args(
        adminForm(SHOP, "/app/settings", {
          "orders.deliveredAfterDays": "14",
          "orders.exclude.sourceNames": "pos, shopify_draft_order",
          "orders.seller.mode": "property",
          "orders.seller.property": "Seller",
        }),
      ),
    );
    expect(result).toEqual({ ok: true, saved: true, resync: false });
    const after = await s.web.shops.settings(SHOP);
    expect(after.orders).toMatchObject({
      deliveredAfterDays: 14,
      exclude: { sourceNames: ["pos", "shopify_draft_order"], testOrders: false },
      seller: { mode: "property", property: "Seller" },
    });
    await action(args(adminForm(SHOP, "/app/settings", { "orders.deliveredAfterDays": "" })));
    expect((await s.web.shops.settings(SHOP)).orders.deliveredAfterDays).toBeNull();
  });
});

describe("reviews: moderation", () => {
  it("GIVEN a review approved in the admin THEN the shop's back-sync is queued at once, not left to the next poll", async () => {
    const { reviewsFor } = await import("../../app/.server/admin/reviews-client");
    const { moderateReviews } = await import("../../app/.server/admin/moderation");
    const client = await reviewsFor(s.web, SHOP); // connected by the credentials test above
    await client.admin.sendCatalogBatch([{ sku: "9001", name: "Stoneware mug", categories: ["Mugs"] }]);
    const review = await client.storefront.submitReview("9001", {
      userId: "shopper-1",
      email: "shopper-1@example.com",
      rating: 5,
      text: "Lovely glaze.",
      source: "web",
    });
    // The connect above queued a run that may still be retrying (no Shopify here): a request then
    // lands on it as a deduplicated add, which counts as queued too.
    const events = new QueueEvents(QueueName.maintenance, {
      connection: { url: s.config.REDIS_URL },
      prefix: s.prefix,
    });
    await events.waitUntilReady();
    const added: string[] = [];
    events.on("added", ({ name }) => added.push(name));
    events.on("deduplicated", ({ deduplicationId }) =>
      added.push(
        deduplicationId.startsWith(`${BACKSYNC}-`) && !deduplicationId.startsWith(`${BACKSYNC}-reconcile`)
          ? BACKSYNC
          : deduplicationId,
      ),
    );
    try {
      expect(await moderateReviews(s.web, SHOP, ["no-such-review"], true)).toMatchObject({ done: [] });
      expect(await moderateReviews(s.web, SHOP, [review._id], true)).toMatchObject({ done: [review._id], failed: [] });
      await eventually(
        async () => added,
        (names) => names.includes(BACKSYNC),
      );
      // Only the moderation that changed something asked for a run.
      expect(added.filter((n) => n === BACKSYNC)).toHaveLength(1);
    } finally {
      await events.close();
    }
  });
});
