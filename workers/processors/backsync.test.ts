import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../../test/helpers/stack";
import { eventually } from "../../test/helpers/contexts";
import { startSimulatedStore, type SimulatedStore } from "../../sandbox/simulated-store";
import { requestBackSync } from "../../app/.server/backsync/schedule";
import { QueueName } from "../../app/.server/queues/names";
import { productIdOfGid } from "../../app/.server/backsync/rating-metafields";
import { NEGATIVE_REVIEW, REVIEW_PUBLISHED } from "../../app/.server/backsync/flow-triggers";
import { snapshotSchema } from "../../app/.server/theme/snapshot";
import { defaultProcessors, startWorkers } from "../start";
import { requestDueBackSyncs, scheduleBackSync } from "../../app/.server/backsync/schedule";
import { cadenceOf, pollScheduleOf } from "../../app/.server/activity/poll-schedule";
import { pollScheduleKeys } from "../../app/.server/activity/poll-schedule";
import type { ReviewsClient } from "../../app/.server/reviews";
import { seedOfflineSession } from "../../test/helpers/offline-session";
import { FEED_ORDER, seenKey } from "../../app/.server/backsync/review-feed";
import { shopDataSchema } from "../../app/.server/theme";

// Ratings back into Shopify against real parts: the emulator over HTTP (reviews submitted through
// its Client API, moderated through its control API or the Admin API), the simulated store over
// HTTP with a small cost bucket (so the client must pace itself), real Redis and BullMQ workers.
// Twice: with the emulator's own extra fields (`moderatedAt` on each review, a shortcut for the
// feed) and strict (the documented fields only), where a moderation must arrive just as fast.

describe.each([
  { mode: "extended", strict: false },
  { mode: "strict", strict: true },
])("back-sync ($mode)", ({ strict }) => {
  let s: Stack;
  let store: SimulatedStore;
  let reviews: ReviewsClient;
  let shopId: string;
  const shop = "backsync.myshopify.com";
  const PRODUCTS = 30;
  let ids: string[] = [];

  const calls = (name: string, since: number) => store.requests.slice(since).filter((r) => r.operationName === name);
  const throttled = () => store.requests.filter((r) => r.throttled).map((r) => r.operationName);
  const ratingOf = (id: string) => store.metafield(`gid://shopify/Product/${id}`, "reviews", "rating");
  const countOf = (id: string) => store.metafield(`gid://shopify/Product/${id}`, "reviews", "rating_count");
  const snapshotOf = (id: string) => {
    const m = store.metafield(`gid://shopify/Product/${id}`, "$app:reviews", "snapshot");
    return m ? snapshotSchema.parse(JSON.parse(m.value)) : null;
  };

  let userNo = 0;
  /** A review submitted through the Client API (pending), then approved through the emulator's control API. */
  async function review(
    sku: string,
    rating: number,
    text = `Review ${rating} stars`,
    opts: { publish?: boolean } = {},
  ) {
    userNo++;
    const r = await reviews.storefront.submitReview(sku, {
      userId: `u-${userNo}`,
      email: `buyer${userNo}@example.com`,
      rating,
      text,
    });
    if (opts.publish !== false) s.emu.control.publishReview(r._id);
    return r._id;
  }

  async function runAndWait(opts: { reconcile?: boolean } = {}) {
    await requestBackSync({ queues: s.web.queues, config: s.config }, shopId, opts);
    await s.idle();
  }

  /** What the service says a product has (published count and average), from the emulator. */
  function published(sku: string) {
    const rs = s.emu.control.state("acme").reviews.filter((r) => r.sku === sku && r.status === "published");
    return {
      count: rs.length,
      avg: rs.length ? Math.round((rs.reduce((a, r) => a + r.rating, 0) / rs.length) * 10) / 10 : 0,
    };
  }

  /** The feed's memory as stored (cursor and seen reviews). */
  const feedMemory = async () => {
    const row = await s.t.db.backSyncState.findUniqueOrThrow({ where: { shopId } });
    return { cursor: row.cursor, feedSeen: row.feedSeen };
  };
  /** The newest moderation time at the service: the cursor, when the service sends it. */
  const newestModeration = () =>
    strict
      ? null
      : s.emu.control
          .state("acme")
          .reviews.map((r) => r.moderatedAt ?? "")
          .sort()
          .at(-1);
  /** Makes the feed believe it has seen the top of the service's list as it is now (a lost change). */
  async function rememberTopAsSeen(cursor: string | null) {
    const top = await reviews.admin.listReviews({ order: FEED_ORDER });
    await s.t.db.backSyncState.update({
      where: { shopId },
      data: { cursor, feedSeen: JSON.stringify(top.results.filter((r) => r.status !== "pending").map(seenKey)) },
    });
  }

  beforeAll(async () => {
    // A small bucket (30 points, 20 a second): a run costs more than it holds, so the client must wait for it.
    store = await startSimulatedStore({
      shop,
      products: PRODUCTS,
      seed: 11,
      throttle: { maximumAvailable: 30, restoreRate: 20 },
    });
    s = await startStack(
      `backsync-${strict ? "strict" : "ext"}`,
      { SHOPIFY_ORIGIN: store.originTemplate, JOB_BACKOFF_MS: "20" },
      { emulator: { strict } },
    );
    await s.connect(shop);
    await seedOfflineSession(s.t.db, store, { shop });
    shopId = (await s.web.shops.get(shop)).id;
    reviews = await s.worker.reviewsFor(shop);
    ids = store.products().map((p) => productIdOfGid(p.id));
    await reviews.admin.sendCatalogBatch(
      store.products().map((p) => ({ sku: productIdOfGid(p.id), name: p.title, categories: ["General"] })),
    );
    // Twelve products with published reviews (ratings 1..5), one with only a pending review.
    for (const [i, id] of ids.slice(0, 12).entries())
      for (let k = 0; k <= i % 4; k++) await review(id, 1 + ((i + k) % 5));
    await review(ids[12], 4, "Still waiting for moderation", { publish: false });
  }, 60_000);

  afterAll(async () => {
    await s?.close();
    await store?.close();
  });

  describe("back-sync of ratings into Shopify", () => {
    it("GIVEN a connected shop THEN the first run enables the standard definitions and the reconciliation writes every product with published reviews, 25 metafields a call, never throttled", async () => {
      const since = store.requests.length;
      await runAndWait();
      expect(
        store
          .metafieldDefinitions()
          .map((d) => `${d.namespace}.${d.key}`)
          .sort(),
      ).toEqual(["app--7461923--reviews.rating_value", "reviews.rating", "reviews.rating_count"]);
      // The decimal copy storefront filters take: readable on the storefront, a collection
      // condition and an admin filter, 1.0 to 5.0.
      expect(store.metafieldDefinitions().find((d) => d.key === "rating_value")).toMatchObject({
        type: "number_decimal",
        storefrontAccess: "PUBLIC_READ",
        capabilities: ["smartCollectionCondition", "adminFilterable"],
        validations: [
          { name: "min", value: "1.0" },
          { name: "max", value: "5.0" },
        ],
      });
      for (const id of ids.slice(0, 12)) {
        const want = published(id);
        expect(JSON.parse(ratingOf(id)!.value)).toEqual({
          value: want.avg.toFixed(1),
          scale_min: "1.0",
          scale_max: "5.0",
        });
        expect(countOf(id)!.value).toBe(String(want.count));
        expect(store.metafield(`gid://shopify/Product/${id}`, "$app:reviews", "rating_value")?.value).toBe(
          want.avg.toFixed(1),
        );
        expect(snapshotOf(id)).toMatchObject({ sku: id, count: want.count, avg: want.avg });
      }
      // No published review: nothing written (the pending one does not count).
      for (const id of ids.slice(12)) expect(store.metafields(`gid://shopify/Product/${id}`)).toEqual([]);
      expect(
        calls("MetafieldsSet", since).filter((c) =>
          (c.variables.metafields as { ownerId: string }[])[0].ownerId.includes("/Product/"),
        ),
      ).toHaveLength(Math.ceil((12 * 4) / 25));
      expect(calls("StandardMetafieldDefinitionEnable", since)).toHaveLength(2);
      expect(calls("MetafieldDefinitionCreate", since)).toHaveLength(1);
      expect(throttled()).toEqual([]);

      const data = store.metafield(store.appInstallationId, "reviews", "shop");
      expect(shopDataSchema.parse(JSON.parse(data!.value))).toMatchObject({
        customer: "acme",
        proxyPath: "/apps/reviews",
        topRated: { label: expect.any(String) },
      });
      const state = await s.t.db.backSyncState.findUniqueOrThrow({ where: { shopId } });
      expect(state.reconciledAt).not.toBeNull();
      expect(state.cursor).toBe(newestModeration());
      expect(JSON.parse(state.feedSeen!).length).toBeGreaterThan(0);
    });

    it("GIVEN a quiet poll THEN the store's figures are not read again within the hour; a change found, a setting they carry or the hour's end reads them", async () => {
      const storeReads = (since: number) =>
        s.emu.control.requests(since).filter((r) => /\/(store-reviews|top-rated)\//.test(r.path));
      const freshKey = `${s.prefix}:backsync:shop-data-read:${shopId}`;
      await runAndWait();
      let since = s.emu.control.lastRequestSeq();
      await runAndWait();
      expect(storeReads(since)).toEqual([]);
      // A review found by the feed: the figures are read in that run.
      await review(ids[28], 5, "Read with the figures");
      since = s.emu.control.lastRequestSeq();
      await runAndWait();
      expect(storeReads(since).length).toBeGreaterThan(0);
      // The hour is over (its mark gone): read again, though nothing changed.
      await s.web.queues.redis.del(freshKey);
      since = s.emu.control.lastRequestSeq();
      await runAndWait();
      expect(storeReads(since).length).toBeGreaterThan(0);
      expect(await s.web.queues.redis.pttl(freshKey)).toBeGreaterThan(3_500_000);
      // The guest-questions setting is carried in them: a change is written at the next run.
      await s.web.shops.updateSettings(shop, { storefront: { guestQuestions: true } });
      await runAndWait();
      const data = store.metafield(store.appInstallationId, "reviews", "shop");
      expect(shopDataSchema.parse(JSON.parse(data!.value)).guestQuestions).toBe(true);
      await s.web.shops.updateSettings(shop, { storefront: { guestQuestions: false } });
      await runAndWait();
    });

    it("GIVEN ratings written by a release without the filterable decimal THEN the next run brings the definitions up to date and writes it on every rated product from the stored averages", async () => {
      const written = await s.t.db.ratingDigest.findMany({ where: { shopId, status: "written" } });
      expect(written.length).toBeGreaterThan(10);
      // What the previous release left: its definitions made before the decimal existed, and none
      // of the products holding the right value (a stale one stands in for "absent").
      await s.t.db.backSyncState.update({ where: { shopId }, data: { definitionsEnabledAt: new Date("2026-06-01") } });
      store.setMetafields(
        written.map((d) => ({
          ownerId: `gid://shopify/Product/${d.productId}`,
          namespace: "$app:reviews",
          key: "rating_value",
          type: "number_decimal",
          value: "1.0",
        })),
      );
      const since = store.requests.length;
      await runAndWait();
      expect(calls("MetafieldDefinitionCreate", since)).toHaveLength(1);
      for (const d of written)
        expect(store.metafield(`gid://shopify/Product/${d.productId}`, "$app:reviews", "rating_value")?.value).toBe(
          published(d.productId).avg.toFixed(1),
        );
      // One metafield a product, 25 a call; no review read again for it.
      const productWrites = calls("MetafieldsSet", since).filter((c) =>
        (c.variables.metafields as { ownerId: string }[])[0].ownerId.includes("/Product/"),
      );
      expect(productWrites).toHaveLength(Math.ceil(written.length / 25));
      const state = await s.t.db.backSyncState.findUniqueOrThrow({ where: { shopId } });
      expect(state.definitionsEnabledAt!.getTime()).toBeGreaterThan(Date.parse("2026-11-27"));
      // Up to date now: the next run makes no definition.
      const after = store.requests.length;
      await runAndWait();
      expect(calls("MetafieldDefinitionCreate", after)).toHaveLength(0);
    });

    it("GIVEN nothing changed THEN a second run (and a reconciliation) writes nothing", async () => {
      const since = store.requests.length;
      await runAndWait();
      await runAndWait({ reconcile: true });
      expect(calls("MetafieldsSet", since)).toHaveLength(0);
      expect(calls("StandardMetafieldDefinitionEnable", since)).toHaveLength(0);
      expect(throttled()).toEqual([]);
    });

    it("GIVEN a moderation in our admin THEN requestBackSync writes only the product it changed, and Flow hears of it once", async () => {
      const pendingA = await review(ids[20], 2, "Too small", { publish: false });
      await review(ids[21], 5, "Untouched, still pending", { publish: false });
      const since = store.requests.length;
      const flowBefore = store.flowTriggers.length;
      await reviews.admin.moderateReview(pendingA, true);
      await runAndWait();
      const sets = calls("MetafieldsSet", since);
      expect(sets).toHaveLength(1);
      expect(new Set((sets[0].variables.metafields as { ownerId: string }[]).map((m) => m.ownerId))).toEqual(
        new Set([`gid://shopify/Product/${ids[20]}`]),
      );
      expect(countOf(ids[20])!.value).toBe("1");
      expect(countOf(ids[21])).toBeNull();
      const flow = store.flowTriggers.slice(flowBefore);
      expect(flow.map((f) => f.handle).sort()).toEqual([NEGATIVE_REVIEW, REVIEW_PUBLISHED]);
      expect(flow[0].payload).toEqual({
        product_id: Number(ids[20]),
        "Review id": pendingA,
        Rating: 2,
        "Review text": "Too small",
        "Reviewer name": expect.any(String),
        "Review status": "published",
      });
    });

    it("GIVEN a product group created, a review on one of its products, then the group deleted THEN each run brings every product's stars, count and first page to what the service shows for it", async () => {
      const [reviewed, joined] = [ids[2], ids[27]];
      /** What the storefront reads for a product: the standard count, the rating and the snapshot. */
      const shown = (id: string) => ({
        count: countOf(id)?.value ?? null,
        rating: ratingOf(id) ? JSON.parse(ratingOf(id)!.value).value : null,
        snapshot: snapshotOf(id)?.count ?? null,
        listed: snapshotOf(id)?.reviews.length ?? null,
      });
      /** What the service's summary says of a product (its group's reviews when it is in one). */
      const service = async (id: string) => {
        const agg = (await reviews.storefront.getSummary(id, { pageSize: 10 })).reviews[0];
        const count = agg?.reviewCount ?? 0;
        return count
          ? {
              count: String(count),
              rating: (Math.round(agg!.aggregateRating * 10) / 10).toFixed(1),
              snapshot: count,
              listed: Math.min(count, 10),
            }
          : { count: null, rating: null, snapshot: null, listed: null };
      };
      expect(shown(joined).count).toBeNull();

      const group = await reviews.admin.createProductGroup({
        name: "Same shoe, two colours",
        skus: [reviewed, joined],
      });
      await runAndWait();
      expect(shown(joined)).toEqual(await service(joined));
      expect(shown(reviewed)).toEqual(await service(reviewed));
      expect(shown(joined).count).toBe(String(published(reviewed).count));

      // A review of one product of the group: the feed names that product, its mate moves with it.
      await review(joined, 5, "Grouped and glad");
      await runAndWait();
      expect(shown(reviewed)).toEqual(await service(reviewed));
      expect(shown(joined)).toEqual(await service(joined));
      expect(shown(reviewed).count).toBe(String(published(reviewed).count + 1));

      await reviews.admin.deleteProductGroup(group._id);
      await runAndWait();
      expect(shown(reviewed)).toEqual(await service(reviewed));
      expect(shown(joined)).toEqual(await service(joined));
      expect(shown(joined).count).toBe("1");
      expect(throttled()).toEqual([]);
    });

    it("GIVEN many requests for the same shop at once THEN one run waits behind the running one at most", async () => {
      const feedReads = () =>
        s.emu.control
          .requests()
          .filter((r) => r.path === "/api/acme/reviews/all" && String(r.query.order ?? "").startsWith("moderatedAt"))
          .length;
      const before = feedReads();
      await Promise.all(
        Array.from({ length: 10 }, () => requestBackSync({ queues: s.web.queues, config: s.config }, shopId)),
      );
      await s.idle();
      const runs = feedReads() - before;
      expect(runs).toBeGreaterThanOrEqual(1);
      expect(runs).toBeLessThanOrEqual(2);
    });

    it("GIVEN the service down (503 on summaries) THEN the run retries with backoff, the cursor stays until it succeeds, and nothing is lost", async () => {
      const id = await review(ids[26], 4, "Solid", { publish: false });
      const memoryBefore = await feedMemory();
      // An outage of the summaries: every attempt fails until it ends.
      s.emu.control.setFaults({ errorRate: 1, errorStatus: 503, paths: "/summary" });
      const since = s.emu.control.lastRequestSeq();
      try {
        s.emu.control.publishReview(id);
        await requestBackSync({ queues: s.web.queues, config: s.config }, shopId);
        // The job failed at least once and waits for its next attempt (backoff), not lost.
        const retried = async () =>
          (await s.web.queues.get(QueueName.maintenance).getJobs(["delayed", "waiting", "active"])).find(
            (j) => j.name === "backsync",
          )?.attemptsMade ?? 0;
        await eventually(retried, (n) => n >= 2);
        expect(
          s.emu.control.requests(since).filter((r) => r.path.includes("/summary") && r.status === 503).length,
        ).toBeGreaterThanOrEqual(2);
        expect(await feedMemory()).toEqual(memoryBefore);
        expect(countOf(ids[26])).toBeNull();
      } finally {
        s.emu.control.clearFaults();
      }
      await eventually(
        async () => countOf(ids[26])?.value,
        (v) => v === "1",
      );
      await s.idle();
      expect(
        s.emu.control
          .requests(since)
          .filter((r) => r.path.includes(`/${ids[26]}/summary`))
          .map((r) => r.status),
      ).toContain(200);
      expect(await feedMemory()).not.toEqual(memoryBefore);
    });

    it("GIVEN a quiet shop THEN its poll is one call (the feed) and the next waits a quiet period; a change found brings back the active pace, and a moderation in the admin reads the groups again", async () => {
      const keys = pollScheduleKeys(s.prefix);
      const redis = s.web.queues.redis;
      const { activeMs, quietMs } = cadenceOf(s.config);
      // The shop's activity is over (the merchant's last action was long ago), its rate none.
      await redis.zrem(keys.active, shopId);
      await redis.hdel(keys.changes, shopId);
      const pollNow = async () => {
        // The tick, as if the shop's time had come (it is leased meanwhile, then set by the run).
        await redis.zadd(keys.due, 0, shopId);
        const since = s.emu.control.lastRequestSeq();
        expect(await requestDueBackSyncs({ queues: s.web.queues, config: s.config })).toMatchObject({ shops: 1 });
        await s.idle();
        return {
          calls: s.emu.control.requests(since).map((r) => r.path),
          dueIn: Number(await redis.zscore(keys.due, shopId)) - Date.now(),
        };
      };
      await pollNow();
      const quiet = await pollNow();
      expect(quiet.calls).toEqual(["/api/acme/reviews/all"]);
      expect(quiet.dueIn).toBeGreaterThan(quietMs - 60_000);
      expect(quiet.dueIn).toBeLessThanOrEqual(quietMs);
      await review(ids[29], 4, "Found by the next poll");
      expect((await pollNow()).dueIn).toBeLessThanOrEqual(activeMs);
      expect(countOf(ids[29])?.value).toBe(String(published(ids[29]).count));
      // Within ten minutes of that change, still the active pace.
      expect((await pollNow()).dueIn).toBeLessThanOrEqual(activeMs);
      // A moderation in the admin asks a run at once, which reads the groups even with an empty feed.
      const since = s.emu.control.lastRequestSeq();
      await requestBackSync({ queues: s.web.queues, config: s.config }, shopId);
      await s.idle();
      expect(s.emu.control.requests(since).map((r) => r.path)).toContain("/api/acme/products/groups/all");
    });

    it("GIVEN the scheduler polls THEN a review approved in the emulator reaches the metafield within one poll", async () => {
      const id = await review(ids[22], 5, "Lovely", { publish: false });
      const every = 400;
      // The worker as configured with that pace (its runs set the next poll by it).
      const configured = s.worker.config.BACKSYNC_INTERVAL_MS;
      s.worker.config.BACKSYNC_INTERVAL_MS = every;
      await scheduleBackSync({ queues: s.worker.queues, db: s.t.db, config: s.worker.config });
      // An active shop (enrolled long before, its next poll was minutes away at the default pace).
      await pollScheduleOf(s.worker.queues, s.worker.config).noteActivity(shopId, Date.now() + 3_600_000, Date.now());
      try {
        // Let one poll pass with nothing to do, then approve: the next poll must carry it.
        const feedReads = () =>
          s.emu.control
            .requests()
            .filter((r) => r.path === "/api/acme/reviews/all" && String(r.query.order ?? "").startsWith("moderatedAt"))
            .length;
        const before = feedReads();
        await eventually(
          async () => feedReads(),
          (n) => n > before,
          10_000,
        );
        s.emu.control.publishReview(id);
        const approvedAt = feedReads();
        await eventually(
          async () => countOf(ids[22])?.value,
          (v) => v === "1",
          10_000,
        );
        // The run that started after the approval read one page and wrote it: no second poll needed.
        expect(feedReads() - approvedAt).toBeLessThanOrEqual(2);
      } finally {
        s.worker.config.BACKSYNC_INTERVAL_MS = configured;
        await scheduleBackSync({ queues: s.worker.queues, db: s.t.db, config: s.worker.config });
      }
      await s.idle();
      expect(throttled()).toEqual([]);
    });

    it("GIVEN the feed missed a change THEN the reconciliation finds the drifted product from the report and refreshes it", async () => {
      // The feed's memory moves past a moderation as if the feed had lost it.
      const id = await review(ids[0], 1, "Missed by the feed", { publish: false });
      s.emu.control.publishReview(id);
      await rememberTopAsSeen(strict ? null : new Date(Date.now() + 3_600_000).toISOString());
      await runAndWait();
      expect(countOf(ids[0])!.value).not.toBe(String(published(ids[0]).count));
      const since = store.requests.length;
      await runAndWait({ reconcile: true });
      expect(countOf(ids[0])!.value).toBe(String(published(ids[0]).count));
      expect(snapshotOf(ids[0])!.avg).toBe(published(ids[0]).avg);
      const written = new Set(
        calls("MetafieldsSet", since).flatMap((c) =>
          (c.variables.metafields as { ownerId: string }[]).map((m) => m.ownerId),
        ),
      );
      expect(written).toEqual(new Set([`gid://shopify/Product/${ids[0]}`]));
      // Back to a cursor that follows the service's clock.
      await rememberTopAsSeen(newestModeration() ?? null);
    });

    it("GIVEN a product deleted in Shopify THEN it is skipped and recorded, and the other products of the same call are written", async () => {
      const gone = ids[23];
      store.deleteProduct(`gid://shopify/Product/${gone}`);
      await review(gone, 4);
      await review(ids[24], 3);
      await runAndWait();
      expect(
        (await s.t.db.ratingDigest.findUniqueOrThrow({ where: { shopId_productId: { shopId, productId: gone } } }))
          .status,
      ).toBe("missing");
      expect(countOf(ids[24])!.value).toBe("1");
      // Never read again: a later change of it costs no summary and no write.
      await review(gone, 5);
      const since = store.requests.length;
      const sinceSeq = s.emu.control.lastRequestSeq();
      await runAndWait();
      expect(calls("MetafieldsSet", since)).toHaveLength(0);
      expect(s.emu.control.requests(sinceSeq).filter((r) => r.path.includes(`/${gone}/summary`))).toHaveLength(0);
    });

    it("GIVEN a review on a SKU that is no Shopify product id THEN it is skipped and the feed moves on", async () => {
      await reviews.admin.sendCatalogBatch([
        { sku: "legacy/sku-42", name: "Imported product", categories: ["General"] },
      ]);
      await review("legacy/sku-42", 5, "From the old shop");
      const since = store.requests.length;
      const memoryBefore = await feedMemory();
      await runAndWait();
      expect(calls("MetafieldsSet", since)).toHaveLength(0);
      expect(await feedMemory()).not.toEqual(memoryBefore);
    });

    it("GIVEN a product whose reviews are all rejected THEN its metafields are removed", async () => {
      const id = ids[24];
      for (const r of s.emu.control.state("acme").reviews.filter((x) => x.sku === id && x.status === "published"))
        await reviews.admin.moderateReview(r._id, false);
      await runAndWait();
      expect(store.metafields(`gid://shopify/Product/${id}`)).toEqual([]);
      expect(
        (await s.t.db.ratingDigest.findUniqueOrThrow({ where: { shopId_productId: { shopId, productId: id } } }))
          .status,
      ).toBe("cleared");
    });

    it("GIVEN the worker restarts and the feed is read again THEN no Flow trigger is sent twice", async () => {
      const id = await review(ids[25], 1, "Broke at once", { publish: false });
      const flowBefore = store.flowTriggers.length;
      const memory = await feedMemory();
      s.emu.control.publishReview(id);
      await runAndWait();
      expect(
        store.flowTriggers
          .slice(flowBefore)
          .map((f) => f.handle)
          .sort(),
      ).toEqual([NEGATIVE_REVIEW, REVIEW_PUBLISHED]);
      // A new worker process, and the cursor back where it was (a crash before it was saved).
      await s.workers.close();
      s.workers = startWorkers(s.worker, defaultProcessors());
      await s.t.db.backSyncState.update({ where: { shopId }, data: memory });
      await runAndWait();
      expect(
        store.flowTriggers.slice(flowBefore).filter((f) => (f.payload as { "Review id": string })["Review id"] === id),
      ).toHaveLength(2);
    });

    it("GIVEN app/uninstalled and a reinstall THEN what was written is written again (Shopify may have removed it), and no Flow trigger is sent again", async () => {
      const claims = await s.t.db.flowTriggerSent.count({ where: { shopId } });
      expect((await s.deliver("app/uninstalled", shop, { id: 1, domain: shop })).status).toBe(200);
      await eventually(
        () => s.t.db.ratingDigest.count({ where: { shopId, status: { not: "missing" } } }),
        (n) => n === 0,
      );
      expect(await s.t.db.backSyncState.count({ where: { shopId } })).toBe(0);
      // Reinstalled: a new offline session, the shop installed again, a run asked for.
      await s.web.shops.markInstalled(shop);
      await seedOfflineSession(s.t.db, store, { shop });
      const since = store.requests.length;
      const flowBefore = store.flowTriggers.length;
      await runAndWait();
      expect(calls("StandardMetafieldDefinitionEnable", since)).toHaveLength(2);
      const written = (await s.t.db.ratingDigest.findMany({ where: { shopId, status: "written" } })).length;
      expect(written).toBeGreaterThan(10);
      expect(calls("MetafieldsSet", since).length).toBe(Math.ceil((written * 4) / 25) + 1);
      expect(store.flowTriggers.length).toBe(flowBefore);
      expect(await s.t.db.flowTriggerSent.count({ where: { shopId } })).toBe(claims);
    });

    it("GIVEN shop/redact THEN the cursor, the digests and the Flow records of the shop are deleted", async () => {
      expect(await s.t.db.ratingDigest.count({ where: { shopId } })).toBeGreaterThan(0);
      expect(await s.t.db.flowTriggerSent.count({ where: { shopId } })).toBeGreaterThan(0);
      const res = await s.deliver("shop/redact", shop, { shop_id: 1, shop_domain: shop });
      expect(res.status).toBe(200);
      await eventually(
        () => s.t.db.shop.count({ where: { domain: shop } }),
        (n) => n === 0,
      );
      expect(await s.t.db.backSyncState.count({ where: { shopId } })).toBe(0);
      expect(await s.t.db.ratingDigest.count({ where: { shopId } })).toBe(0);
      expect(await s.t.db.flowTriggerSent.count({ where: { shopId } })).toBe(0);
      expect(throttled()).toEqual([]);
    });
  });
});
