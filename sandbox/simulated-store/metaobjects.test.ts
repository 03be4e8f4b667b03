import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { createAdminGraphql } from "../../app/.server/shopify/admin-graphql";
import {
  METAOBJECT_BY_HANDLE,
  METAOBJECT_DEFINITION_BY_TYPE,
  METAOBJECT_DELETE,
  METAOBJECT_UPSERT,
  STANDARD_METAOBJECT_DEFINITION_ENABLE,
} from "../../app/.server/shopify/metaobject-documents";
import { ThrottleRegistry } from "../../app/.server/shopify/throttle";
import { startSimulatedStore, type SimulatedStore } from ".";

// The standard product review metaobject in the simulated store, over HTTP with the app's client:
// granted as a development store with test access grants it, refused as a store of an app outside
// the program, writes refused before the definition is on, fields checked against the definition.

const open: SimulatedStore[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function start(granted?: string[]) {
  const store = await startSimulatedStore({ products: 1, seed: 3, grantedMetaobjects: granted });
  open.push(store);
  const gql = createAdminGraphql({
    shop: store.shop,
    accessToken: store.accessToken,
    apiVersion: store.apiVersion,
    endpoint: store.graphqlEndpoint,
    logger: pino({ level: "silent" }),
    throttle: new ThrottleRegistry(),
  });
  return { store, gql };
}

interface Errors {
  userErrors: { field: string[]; message: string; code: string; elementKey?: string }[];
}
const codes = (e: Errors) => e.userErrors.map((x) => x.code);

const enable = (gql: Awaited<ReturnType<typeof start>>["gql"]) =>
  gql
    .query<{ standardMetaobjectDefinitionEnable: Errors & { metaobjectDefinition: { type: string } | null } }>(
      STANDARD_METAOBJECT_DEFINITION_ENABLE,
      { type: "product_review" },
    )
    .then((d) => d.standardMetaobjectDefinitionEnable);

const upsert = (gql: Awaited<ReturnType<typeof start>>["gql"], handle: string, fields: Record<string, string>) =>
  gql
    .request<{ metaobjectUpsert: Errors & { metaobject: { id: string; handle: string } | null } }>(METAOBJECT_UPSERT, {
      handle: { type: "product_review", handle },
      metaobject: { fields: Object.entries(fields).map(([key, value]) => ({ key, value })) },
    })
    .then((r) => ({ ...r.data.metaobjectUpsert, cost: r.cost }));

const valid = {
  rating: JSON.stringify({ value: "5", scale_min: "1", scale_max: "5" }),
  submitted_at: "2026-11-02T14:05:11.000Z",
  source: "Reviews connector",
  author: "gid://shopify/Customer/7412345678901",
  order: "gid://shopify/Order/5400000000123",
  product: "gid://shopify/Product/8100000000001",
  media_urls: JSON.stringify(["https://cdn.reviews.example/p1.jpg"]),
  merchant_reply: "Thanks!",
};

describe("simulated store: standard product review metaobject", () => {
  it("GIVEN an app outside the program THEN enabling answers NOT_AUTHORIZED and writes UNDEFINED_OBJECT_TYPE", async () => {
    const { store, gql } = await start([]);
    const e = await enable(gql);
    expect(codes(e)).toEqual(["NOT_AUTHORIZED"]);
    expect(e.metaobjectDefinition).toBeNull();
    expect(codes(await upsert(gql, "review-a", valid))).toEqual(["UNDEFINED_OBJECT_TYPE"]);
    const def = await gql.query<{ metaobjectDefinitionByType: unknown }>(METAOBJECT_DEFINITION_BY_TYPE, {
      type: "product_review",
    });
    expect(def.metaobjectDefinitionByType).toBeNull();
    expect(store.metaobjects("product_review")).toEqual([]);
  });

  it("GIVEN test access THEN writes are refused until the definition is on; enabling twice answers TAKEN", async () => {
    const { store, gql } = await start();
    expect(codes(await upsert(gql, "review-a", valid))).toEqual(["UNDEFINED_OBJECT_TYPE"]);
    expect(codes(await enable(gql))).toEqual([]);
    expect(codes(await enable(gql))).toEqual(["TAKEN"]);
    expect(store.metaobjectDefinitionEnabled("product_review")).toBe(true);
    const first = await upsert(gql, "review-a", valid);
    expect(first.userErrors).toEqual([]);
    // A mutation costs 10 points, as Shopify computes it.
    expect(first.cost?.actualQueryCost).toBe(10);
  });

  it("GIVEN the same handle twice THEN one metaobject, updated; an empty value clears the field", async () => {
    const { store, gql } = await start();
    await enable(gql);
    const a = await upsert(gql, "review-a", valid);
    const b = await upsert(gql, "review-a", { ...valid, merchant_reply: "" });
    expect(b.metaobject?.id).toBe(a.metaobject?.id);
    const all = store.metaobjects("product_review");
    expect(all).toHaveLength(1);
    expect(all[0].fields.merchant_reply).toBeUndefined();
    expect(all[0].fields.product).toBe("gid://shopify/Product/8100000000001");
    const found = await gql.query<{ metaobjectByHandle: { id: string } | null }>(METAOBJECT_BY_HANDLE, {
      handle: { type: "product_review", handle: "review-a" },
    });
    expect(found.metaobjectByHandle?.id).toBe(a.metaobject?.id);
    const def = await gql.query<{ metaobjectDefinitionByType: { metaobjectsCount: number } }>(
      METAOBJECT_DEFINITION_BY_TYPE,
      { type: "product_review" },
    );
    expect(def.metaobjectDefinitionByType.metaobjectsCount).toBe(1);
  });

  it("GIVEN values the definition refuses THEN userErrors keyed by field and nothing is written", async () => {
    const { store, gql } = await start();
    await enable(gql);
    const bad = await upsert(gql, "review-b", {
      ...valid,
      rating: JSON.stringify({ value: "7", scale_min: "1", scale_max: "5" }),
      author: "gid://shopify/Order/1",
      media_urls: JSON.stringify(["javascript:alert(1)"]),
      nickname: "x",
    });
    expect(bad.userErrors.map((e) => [e.code, e.elementKey])).toEqual([
      ["INVALID_VALUE", "rating"],
      ["INVALID_VALUE", "author"],
      ["INVALID_VALUE", "media_urls"],
      ["UNDEFINED_OBJECT_FIELD", "nickname"],
    ]);
    const missing = await upsert(gql, "review-c", { rating: valid.rating });
    expect(missing.userErrors.map((e) => [e.code, e.elementKey])).toEqual([
      ["OBJECT_FIELD_REQUIRED", "submitted_at"],
      ["OBJECT_FIELD_REQUIRED", "source"],
    ]);
    expect(codes(await upsert(gql, "Review C!", valid))).toEqual(["URL_HANDLE_INVALID"]);
    expect(store.metaobjects("product_review")).toEqual([]);
  });

  it("GIVEN a metaobject THEN it is deleted by id, and a second delete answers RECORD_NOT_FOUND", async () => {
    const { store, gql } = await start();
    await enable(gql);
    const a = await upsert(gql, "review-a", valid);
    const del = () =>
      gql
        .query<{ metaobjectDelete: Errors & { deletedId: string | null } }>(METAOBJECT_DELETE, { id: a.metaobject?.id })
        .then((d) => d.metaobjectDelete);
    expect(await del()).toEqual({ deletedId: a.metaobject?.id, userErrors: [] });
    expect(codes(await del())).toEqual(["RECORD_NOT_FOUND"]);
    expect(store.metaobjects("product_review")).toEqual([]);
  });
});
