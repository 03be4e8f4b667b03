import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../../test/helpers/db";
import { deletePrefix, uniquePrefix } from "../../test/helpers/redis";
import { signedWebhookRequest } from "../../test/helpers/webhooks";
import { eventually, testAppContext, testConfig, testWorkerContext } from "../../test/helpers/contexts";
import { startWorkers, type RunningWorkers } from "../start";
import type { AppContext } from "../../app/.server/context.server";
import type { WorkerContext } from "../context";
import { madeUpInstall, seedOfflineSession } from "../../test/helpers/offline-session";

// From a signed request through the route, Redis and a real worker to the database.
let t: TestDb;
let web: AppContext;
let wctx: WorkerContext;
let workers: RunningWorkers;
let routes: Record<string, (a: { request: Request; params: object; context: object }) => Promise<Response>>;
const prefix = uniquePrefix("webhook-processor");
const shop = "lifecycle.myshopify.com";

beforeAll(async () => {
  t = await createTestDb("sqlite");
  process.env.DATABASE_URL = t.url;
  const config = testConfig({ DATABASE_URL: t.url, REDIS_PREFIX: prefix });
  web = testAppContext(config, t.db);
  (await import("../../app/.server/context.server")).setAppContext(web);
  routes = {
    "app/uninstalled": (await import("../../app/routes/webhooks.app.uninstalled")).action as never,
    "app/scopes_update": (await import("../../app/routes/webhooks.app.scopes_update")).action as never,
    "products/update": (await import("../../app/routes/webhooks.products.update")).action as never,
  };
  wctx = testWorkerContext(config, t.db);
  workers = startWorkers(wctx, { topics: (await import("../start")).defaultProcessors().topics, jobs: {} });
  await seedOfflineSession(t.db, madeUpInstall(shop, "shpat_x"), { scope: "read_products" });
});

afterAll(async () => {
  await workers.close();
  await wctx.close();
  await web.queues.close();
  await deletePrefix(prefix);
  await t.drop();
});

const deliver = (topic: string, payload: unknown, webhookId: string, rawBody?: string) =>
  routes[topic]({
    request: signedWebhookRequest({ topic, shop, payload, webhookId, rawBody }),
    params: {},
    context: {},
  });

const delivery = (id: string) => t.db.webhookDelivery.findUnique({ where: { id } });

describe("webhook processing", () => {
  it("GIVEN app/scopes_update THEN the shop's sessions carry the new scopes", async () => {
    expect(
      (
        await deliver(
          "app/scopes_update",
          { id: 1, previous: ["read_products"], current: ["read_products", "read_orders"] },
          "d-scopes",
        )
      ).status,
    ).toBe(200);
    const row = await eventually(
      () => delivery("d-scopes"),
      (d) => d?.status === "done",
    );
    expect(row?.topic).toBe("app/scopes_update");
    expect((await t.db.session.findFirstOrThrow({ where: { shop } })).scope).toBe("read_products,read_orders");
  });

  it("GIVEN app/uninstalled THEN the shop is marked uninstalled and its sessions are gone; a second delivery is a no-op", async () => {
    await deliver("app/uninstalled", { id: 1, domain: shop }, "d-uninstall-1");
    await eventually(
      () => delivery("d-uninstall-1"),
      (d) => d?.status === "done",
    );
    const first = await t.db.shop.findUniqueOrThrow({ where: { domain: shop } });
    expect(first.installState).toBe("uninstalled");
    expect(await t.db.session.count({ where: { shop } })).toBe(0);

    await deliver("app/uninstalled", { id: 1, domain: shop }, "d-uninstall-2");
    await eventually(
      () => delivery("d-uninstall-2"),
      (d) => d?.status === "done",
    );
    const second = await t.db.shop.findUniqueOrThrow({ where: { domain: shop } });
    expect(second.uninstalledAt?.getTime()).toBe(first.uninstalledAt?.getTime());
  });

  it("GIVEN a signed delivery with malformed JSON THEN it is recorded as failed with the reason and other deliveries go on", async () => {
    await deliver("products/update", null, "d-bad", '{"id": 1, "title": ');
    await deliver("app/scopes_update", { current: ["read_products"] }, "d-after-bad");
    const bad = await eventually(
      () => delivery("d-bad"),
      (d) => d?.status === "failed",
    );
    expect(bad?.error).toBe("malformed JSON payload");
    await eventually(
      () => delivery("d-after-bad"),
      (d) => d?.status === "done",
    );
  });

  it("GIVEN a payload the handler cannot use THEN the delivery is recorded failed, not retried", async () => {
    await deliver("app/scopes_update", { something: "else" }, "d-no-current");
    const row = await eventually(
      () => delivery("d-no-current"),
      (d) => d?.status === "failed",
    );
    expect(row?.error).toContain("without `current`");
  });
});
