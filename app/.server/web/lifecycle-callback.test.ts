import "@shopify/shopify-api/adapters/web-api";
import { shopifyApi } from "@shopify/shopify-api";
import { createHmac } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../../../test/helpers/db";
import { uniquePrefix } from "../../../test/helpers/redis";
import { signBody } from "../../../test/helpers/webhooks";
import { testAppContext, testConfig } from "../../../test/helpers/contexts";
import type { AppContext } from "../context.server";
import { createFlowTriggerUse } from "../flow/flow-trigger-use.repository";
import { SHOPIFY_API_VERSION } from "../shopify";
import { callbackTime, flowCallbackStatus } from "./lifecycle-callback";

// Flow's trigger lifecycle callback through the route module Remix serves, with Shopify's signature
// (HMAC-SHA256 of the raw body with the app's secret): what a shop's workflows use is recorded,
// an older callback arriving late changes nothing, and an unsigned one is refused. Anything signed
// and readable is answered 200: Flow keeps a merchant's workflow off until it gets one.

const SHOP = "flow-lifecycle.myshopify.com";
let t: TestDb;
let ctx: AppContext & { sink: { text(): string } };
let shopId: string;
let action: (args: { request: Request; params: object; context: object }) => Promise<Response>;

beforeAll(async () => {
  t = await createTestDb("sqlite");
  const config = testConfig({ DATABASE_URL: t.url, REDIS_PREFIX: uniquePrefix("flow-lifecycle") });
  ctx = testAppContext(config, t.db);
  const { setAppContext } = await import("../context.server");
  setAppContext(ctx);
  shopId = (await ctx.shops.ensure(SHOP)).id;
  action = (await import("../../routes/flow.lifecycle")).action as typeof action;
});
afterAll(async () => {
  await ctx.queues.close();
  await t.drop();
});

// As Flow sends it (the fields of "Track Flow lifecycle events").
const callback = (over: Record<string, unknown> = {}) => ({
  flow_trigger_definition_id: "review-collected",
  has_enabled_flow: true,
  shop_id: 690933842,
  shopify_domain: SHOP,
  timestamp: "2026-11-26T12:00:00.000Z",
  ...over,
});

function post(body: string, opts: { secret?: string | null; method?: string } = {}) {
  const secret = opts.secret === undefined ? ctx.config.SHOPIFY_API_SECRET : opts.secret;
  return action({
    request: new Request("https://reviews-app.test/flow/lifecycle", {
      method: opts.method ?? "POST",
      ...(opts.method === "GET" ? {} : { body }),
      headers: {
        "content-type": "application/json",
        ...(secret === null ? {} : { "x-shopify-hmac-sha256": signBody(body, secret) }),
      },
    }),
    params: {},
    context: {},
  });
}
const use = () => createFlowTriggerUse(ctx.db).get(shopId, "review-collected");

describe("Flow's trigger lifecycle callback", () => {
  it("GIVEN a signed callback: a workflow turned on THEN 200 and the shop's use of the trigger is recorded with Flow's time", async () => {
    const res = await post(JSON.stringify(callback()));
    expect(res.status).toBe(200);
    expect(await use()).toEqual({ inUse: true, changedAt: new Date("2026-11-26T12:00:00.000Z") });
  });

  it("GIVEN the trigger named by its title, then turned off THEN recorded under its handle", async () => {
    const off = callback({
      flow_trigger_definition_id: "Review collected",
      has_enabled_flow: false,
      timestamp: "2026-11-26T13:00:00.000Z",
    });
    expect((await post(JSON.stringify(off))).status).toBe(200);
    expect(await use()).toEqual({ inUse: false, changedAt: new Date("2026-11-26T13:00:00.000Z") });
  });

  it("GIVEN an older callback delivered late THEN 200 and the newer state stands", async () => {
    const late = callback({ has_enabled_flow: true, timestamp: "2026-11-26T12:30:00.000Z" });
    expect((await post(JSON.stringify(late))).status).toBe(200);
    expect(await use()).toMatchObject({ inUse: false });
  });

  it("GIVEN a trigger this app does not declare, or a shop it does not know THEN 200, nothing recorded", async () => {
    const rows = await ctx.db.flowTriggerUse.count();
    expect((await post(JSON.stringify(callback({ flow_trigger_definition_id: "Order placed" })))).status).toBe(200);
    expect((await post(JSON.stringify(callback({ shopify_domain: "other.myshopify.com" })))).status).toBe(200);
    expect(await ctx.db.flowTriggerUse.count()).toBe(rows);
  });

  it("GIVEN no signature, another secret's, an unreadable body or a GET THEN refused, nothing recorded", async () => {
    const body = JSON.stringify(callback({ has_enabled_flow: true, timestamp: "2026-11-27T00:00:00.000Z" }));
    expect((await post(body, { secret: null })).status).toBe(401);
    expect((await post(body, { secret: "not-the-app-secret" })).status).toBe(401);
    expect((await post("{not json")).status).toBe(400);
    expect((await post(JSON.stringify({ has_enabled_flow: "yes" }))).status).toBe(400);
    expect((await post(body, { method: "GET" })).status).toBe(405);
    expect(await use()).toMatchObject({ inUse: false });
  });

  it("GIVEN a callback without a readable time THEN the time it arrived counts", () => {
    const now = new Date("2026-11-27T10:00:00.000Z");
    expect(callbackTime({ timestamp: undefined }, now)).toBe(now);
    expect(callbackTime({ timestamp: "yesterday" }, now)).toBe(now);
    expect(callbackTime({ timestamp: "2026-11-26T12:00:00Z" }, now)).toEqual(new Date("2026-11-26T12:00:00Z"));
  });
});

// Shopify's library, `flow.validate`, as the callback used it before the app had one library
// instance: the judge of what a signed callback is. Same answer for every generated case.
describe("Flow callback signature against the library", () => {
  const SECRET = "flow-secret";
  const library = shopifyApi({
    apiKey: "key",
    apiSecretKey: SECRET,
    apiVersion: SHOPIFY_API_VERSION as never,
    hostName: "reviews-app.test",
    isEmbeddedApp: true,
    logger: { level: 0, log: () => undefined },
  });
  const sign = (body: string, secret: string) => createHmac("sha256", secret).update(body, "utf8").digest("base64");

  it("GIVEN generated bodies and signatures (right, another secret's, unpadded, absent) THEN ours and the library's answer alike", async () => {
    const cases = fc.record({
      body: fc.oneof(fc.constant(""), fc.string({ unit: "binary", maxLength: 40 }), fc.json()),
      as: fc.constantFrom("right", "right", "other", "unpadded", "absent", "empty", "hex"),
    });
    let signed = 0;
    await fc.assert(
      fc.asyncProperty(cases, async ({ body, as }) => {
        const header = {
          right: sign(body, SECRET),
          other: sign(body, "other"),
          unpadded: sign(body, SECRET).replace(/=+$/, ""),
          absent: null,
          empty: "",
          hex: createHmac("sha256", SECRET).update(body, "utf8").digest("hex"),
        }[as];
        const headers: Record<string, string> = header === null ? {} : { "x-shopify-hmac-sha256": header };
        const rawRequest = new Request("https://reviews-app.test/flow/lifecycle", { method: "POST", headers });
        const check = await library.flow.validate({ rawBody: body, rawRequest });
        const theirs = check.valid ? 200 : check.reason === "missing_body" ? 400 : 401;
        if (theirs === 200) signed++;
        expect(flowCallbackStatus(body, header, SECRET)).toBe(theirs);
      }),
      { numRuns: 400, seed: 39 },
    );
    expect(signed).toBeGreaterThan(50);
  });
});
