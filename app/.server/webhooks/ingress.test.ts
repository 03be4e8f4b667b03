import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../../../test/helpers/db";
import { deletePrefix, uniquePrefix } from "../../../test/helpers/redis";
import { signedWebhookRequest } from "../../../test/helpers/webhooks";
import { testAppContext, testConfig } from "../../../test/helpers/contexts";
import { createQueues } from "../queues/queues";
import { QueueName } from "../queues/names";
import { UNREADABLE_PAYLOAD } from "../jobs/delivery";
import type { AppContext } from "../context.server";

// The route modules, as Remix serves them, with the ingress's HMAC check (verify.server.ts).
let t: TestDb;
let ctx: AppContext;
let action: (args: { request: Request; params: object; context: object }) => Promise<Response>;
const prefix = uniquePrefix("ingress");

beforeAll(async () => {
  t = await createTestDb("sqlite");
  process.env.DATABASE_URL = t.url;
  const config = testConfig({ DATABASE_URL: t.url, REDIS_PREFIX: prefix });
  ctx = testAppContext(config, t.db);
  const { setAppContext } = await import("../context.server");
  setAppContext(ctx);
  action = (await import("../../routes/webhooks.products.update")).action as typeof action;
});

afterAll(async () => {
  await ctx.queues.close();
  await deletePrefix(prefix);
  await t.drop();
});

const call = (request: Request) => action({ request, params: {}, context: {} });
const product = { id: 632910392, title: "IPod Nano - 8GB", updated_at: "2026-11-20T10:00:00-05:00" };

describe("webhook ingress", () => {
  it("GIVEN a signed delivery THEN it answers 200 and the job is stored in Redis with the delivery headers", async () => {
    const res = await call(
      signedWebhookRequest({
        topic: "products/update",
        shop: "ingress.myshopify.com",
        payload: product,
        webhookId: "wh-1",
        eventId: "ev-1",
      }),
    );
    expect(res.status).toBe(200);
    const job = await ctx.queues.get(QueueName.webhooks).getJob("wh-wh-1");
    expect(job?.data).toMatchObject({
      deliveryId: "wh-1",
      eventId: "ev-1",
      topic: "products/update",
      shop: "ingress.myshopify.com",
      payload: product,
    });
  });

  it("GIVEN the same webhook id twice THEN the second delivery adds nothing", async () => {
    const q = ctx.queues.get(QueueName.webhooks);
    const before = await q.count();
    const again = await call(
      signedWebhookRequest({
        topic: "products/update",
        shop: "ingress.myshopify.com",
        payload: { ...product, title: "changed" },
        webhookId: "wh-1",
      }),
    );
    expect(again.status).toBe(200);
    expect(await q.count()).toBe(before);
    expect((await q.getJob("wh-wh-1"))?.data.payload.title).toBe("IPod Nano - 8GB");
  });

  it("GIVEN a bad or missing signature THEN 401 and nothing stored", async () => {
    const q = ctx.queues.get(QueueName.webhooks);
    const before = await q.count();
    const bad = await call(
      signedWebhookRequest({
        topic: "products/update",
        shop: "ingress.myshopify.com",
        payload: product,
        secret: "wrong",
      }),
    );
    expect(bad.status).toBe(401);
    const unsigned = signedWebhookRequest({
      topic: "products/update",
      shop: "ingress.myshopify.com",
      payload: product,
    });
    unsigned.headers.delete("x-shopify-hmac-sha256");
    expect((await call(unsigned)).status).toBe(401);
    expect(await q.count()).toBe(before);
  });

  it("GIVEN a body over the limit THEN 413 before it is read", async () => {
    const req = signedWebhookRequest({ topic: "products/update", shop: "ingress.myshopify.com", payload: product });
    const big = new Request(req.url, {
      method: "POST",
      body: "{}",
      headers: { ...Object.fromEntries(req.headers), "content-length": String(17 * 1024 * 1024) },
    });
    expect((await call(big)).status).toBe(413);
  });

  it("GIVEN a signed but malformed JSON body THEN it is accepted and stored as unreadable, to be recorded by the worker", async () => {
    const res = await call(
      signedWebhookRequest({
        topic: "products/update",
        shop: "ingress.myshopify.com",
        payload: null,
        rawBody: '{"id": 1,',
        webhookId: "wh-bad-json",
      }),
    );
    expect(res.status).toBe(200);
    expect((await ctx.queues.get(QueueName.webhooks).getJob("wh-wh-bad-json"))?.data.payload).toBe(UNREADABLE_PAYLOAD);
  });

  it("GIVEN Redis cannot take the job THEN 503 so Shopify retries, within the fail-fast bound", async () => {
    const { setAppContext } = await import("../context.server");
    const down = {
      ...ctx,
      queues: createQueues({ redisUrl: "redis://127.0.0.1:1", cluster: false, prefix, role: "producer" }),
    };
    setAppContext(down);
    try {
      const started = Date.now();
      const res = await call(
        signedWebhookRequest({ topic: "products/update", shop: "ingress.myshopify.com", payload: product }),
      );
      expect(res.status).toBe(503);
      expect(Date.now() - started).toBeLessThan(4000);
    } finally {
      setAppContext(ctx);
      await down.queues.close();
    }
  });
});
