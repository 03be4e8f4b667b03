import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { createAdminGraphql } from "../../app/.server/shopify/admin-graphql";
import {
  CURRENT_APP_INSTALLATION,
  FLOW_TRIGGER_RECEIVE,
  METAFIELD_DEFINITION_CREATE,
  METAFIELDS_DELETE,
  METAFIELDS_SET,
  PRODUCT_BY_HANDLE,
  PRODUCT_METAFIELD,
  PRODUCT_METAFIELDS,
  PRODUCT_RATINGS,
  PRODUCTS_WITH_METAFIELDS,
  STANDARD_METAFIELD_DEFINITION_ENABLE,
} from "../../app/.server/shopify/metafield-documents";
import { ThrottleRegistry } from "../../app/.server/shopify/throttle";
import { ratingValueDefinition } from "../../app/.server/backsync/definitions";
import { SIM_APP_ID, startSimulatedStore, type SimulatedStore } from ".";

const open: SimulatedStore[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function start(products = 3) {
  const store = await startSimulatedStore({ products, seed: 7 });
  open.push(store);
  const gql = createAdminGraphql({
    shop: store.shop,
    accessToken: store.accessToken,
    apiVersion: store.apiVersion,
    endpoint: store.graphqlEndpoint,
    logger: pino({ level: "silent" }),
    throttle: new ThrottleRegistry(),
  });
  return { store, gql, ids: store.products().map((p) => p.id) };
}

interface SetAnswer {
  metafieldsSet: {
    metafields: { id: string; namespace: string; key: string }[];
    userErrors: { field: string[]; message: string; code: string; elementIndex: number }[];
  };
}

const rating = (value: string) => JSON.stringify({ value, scale_min: "1.0", scale_max: "5.0" });

describe("simulated store: metafields", () => {
  it("creates the app's decimal rating definition once (TAKEN after), refuses what Shopify refuses, and holds its bounds", async () => {
    const { store, gql, ids } = await start();
    type CreateAnswer = {
      metafieldDefinitionCreate: {
        createdDefinition: { namespace: string; key: string; type: { name: string } } | null;
        userErrors: { field: string[]; code: string }[];
      };
    };
    const create = (definition: unknown) => gql.query<CreateAnswer>(METAFIELD_DEFINITION_CREATE, { definition });
    const definition = ratingValueDefinition(["smartCollectionCondition"]);
    const first = await create(definition);
    expect(first.metafieldDefinitionCreate.userErrors).toEqual([]);
    expect(first.metafieldDefinitionCreate.createdDefinition).toMatchObject({
      namespace: `app--${SIM_APP_ID}--reviews`,
      key: "rating_value",
      type: { name: "number_decimal" },
    });
    expect((await create(definition)).metafieldDefinitionCreate.userErrors.map((e) => e.code)).toEqual(["TAKEN"]);
    const wrongType = await create({ ...definition, key: "other", type: "decimal" });
    expect(wrongType.metafieldDefinitionCreate.userErrors.map((e) => e.code)).toEqual(["INCLUSION"]);
    const wrongCapability = await create({
      ...definition,
      key: "other",
      // In the schema, but not a capability of a product metafield definition.
      capabilities: { cartToOrderCopyable: { enabled: true } },
    });
    expect(wrongCapability.metafieldDefinitionCreate.userErrors.map((e) => e.code)).toEqual(["INVALID_CAPABILITY"]);

    // Its bounds hold: 5.1 is refused, 4.5 is written.
    const set = (value: string) =>
      gql.query<SetAnswer>(METAFIELDS_SET, {
        metafields: [{ ownerId: ids[0], namespace: "$app:reviews", key: "rating_value", value }],
      });
    expect((await set("5.1")).metafieldsSet.userErrors.map((e) => e.code)).toEqual(["LESS_THAN_OR_EQUAL_TO"]);
    expect((await set("4.5")).metafieldsSet.userErrors).toEqual([]);
    expect(store.metafield(ids[0], "$app:reviews", "rating_value")).toMatchObject({
      type: "number_decimal",
      value: "4.5",
    });
  });

  it("enables the standard review definitions once (TAKEN after), then holds their type and scale", async () => {
    const { store, gql, ids } = await start();
    for (const key of ["rating", "rating_count"]) {
      const first = await gql.query<{
        standardMetafieldDefinitionEnable: {
          createdDefinition: { type: { name: string } } | null;
          userErrors: { code: string }[];
        };
      }>(STANDARD_METAFIELD_DEFINITION_ENABLE, { ownerType: "PRODUCT", namespace: "reviews", key });
      expect(first.standardMetafieldDefinitionEnable.userErrors).toEqual([]);
      expect(first.standardMetafieldDefinitionEnable.createdDefinition?.type.name).toBe(
        key === "rating" ? "rating" : "number_integer",
      );
      const again = await gql.query<{
        standardMetafieldDefinitionEnable: { createdDefinition: null; userErrors: { code: string }[] };
      }>(STANDARD_METAFIELD_DEFINITION_ENABLE, { ownerType: "PRODUCT", namespace: "reviews", key });
      expect(again.standardMetafieldDefinitionEnable.userErrors.map((e) => e.code)).toEqual(["TAKEN"]);
    }
    expect(
      store
        .metafieldDefinitions()
        .map((d) => `${d.namespace}.${d.key}`)
        .sort(),
    ).toEqual(["reviews.rating", "reviews.rating_count"]);

    // A scale other than the definition's, and a wrong type, are refused: nothing of the call is written.
    const bad = await gql.query<SetAnswer>(METAFIELDS_SET, {
      metafields: [
        { ownerId: ids[0], namespace: "reviews", key: "rating_count", type: "number_integer", value: "12" },
        {
          ownerId: ids[0],
          namespace: "reviews",
          key: "rating",
          type: "rating",
          value: JSON.stringify({ value: "4", scale_min: "0", scale_max: "10" }),
        },
        { ownerId: ids[1], namespace: "reviews", key: "rating_count", type: "json", value: "12" },
      ],
    });
    expect(bad.metafieldsSet.userErrors.map((e) => [e.elementIndex, e.code, e.field.join(".")])).toEqual([
      [1, "INVALID_VALUE", "metafields.1.value"],
      [2, "INVALID_TYPE", "metafields.2.type"],
    ]);
    expect(bad.metafieldsSet.metafields).toEqual([]);
    expect(store.metafields(ids[0])).toEqual([]);
  });

  it("writes ratings, integers and JSON (app namespace resolved), reads them back per product, in lists, by handle", async () => {
    const { store, gql, ids } = await start();
    const snapshot = JSON.stringify({ v: 1, avg: 4.5, count: 2 });
    const answer = await gql.query<SetAnswer>(METAFIELDS_SET, {
      metafields: [
        { ownerId: ids[1], namespace: "reviews", key: "rating", type: "rating", value: rating("4.5") },
        { ownerId: ids[1], namespace: "reviews", key: "rating_count", type: "number_integer", value: "2" },
        { ownerId: ids[1], namespace: "$app:reviews", key: "snapshot", type: "json", value: snapshot },
      ],
    });
    expect(answer.metafieldsSet.userErrors).toEqual([]);
    expect(answer.metafieldsSet.metafields.map((m) => m.namespace)).toEqual([
      "reviews",
      "reviews",
      `app--${SIM_APP_ID}--reviews`,
    ]);
    expect(store.metafield(ids[1], "$app:reviews", "snapshot")?.value).toBe(snapshot);

    const one = await gql.query<{ product: { metafield: { value: string; type: string } } }>(PRODUCT_METAFIELD, {
      id: ids[1],
      namespace: "$app:reviews",
      key: "snapshot",
    });
    expect(one.product.metafield).toMatchObject({ value: snapshot, type: "json" });
    const all = await gql.query<{ product: { metafields: { nodes: { namespace: string; key: string }[] } } }>(
      PRODUCT_METAFIELDS,
      { id: ids[1], namespace: "reviews" },
    );
    expect(all.product.metafields.nodes.map((m) => m.key).sort()).toEqual(["rating", "rating_count"]);

    const list = await gql.query<{
      products: {
        nodes: { id: string; metafields: { nodes: { key: string }[] } }[];
        pageInfo: { hasNextPage: boolean; endCursor: string };
      };
    }>(PRODUCTS_WITH_METAFIELDS, { first: 2 });
    expect(list.products.nodes.map((n) => n.id)).toEqual(ids.slice(0, 2));
    expect(list.products.nodes[1].metafields.nodes.map((m) => m.key)).toEqual(
      expect.arrayContaining(["rating", "rating_count", "snapshot"]),
    );
    expect(list.products.pageInfo.hasNextPage).toBe(true);
    const rest = await gql.query<{ products: { nodes: { id: string }[]; pageInfo: { hasNextPage: boolean } } }>(
      PRODUCTS_WITH_METAFIELDS,
      { first: 2, after: list.products.pageInfo.endCursor },
    );
    expect(rest.products.nodes.map((n) => n.id)).toEqual([ids[2]]);
    expect(rest.products.pageInfo.hasNextPage).toBe(false);

    // The four by name only (the demo's check), at five points a product instead of the whole list.
    const ratings = await gql.request<{
      products: {
        nodes: {
          id: string;
          rating: { value: string } | null;
          ratingCount: { value: string } | null;
          snapshot: { id: string } | null;
        }[];
      };
    }>(PRODUCT_RATINGS, { first: 3 });
    expect(
      ratings.data.products.nodes.map((n) => [
        n.id,
        n.rating?.value ?? null,
        n.ratingCount?.value ?? null,
        !!n.snapshot,
      ]),
    ).toEqual([
      [ids[0], null, null, false],
      [ids[1], rating("4.5"), "2", true],
      [ids[2], null, null, false],
    ]);
    expect(ratings.cost?.requestedQueryCost).toBe(2 + 3 * 5);

    const handle = store.product(ids[1])!.handle;
    const byHandle = await gql.query<{ productByIdentifier: { id: string; metafields: { nodes: unknown[] } } }>(
      PRODUCT_BY_HANDLE,
      { handle },
    );
    expect(byHandle.productByIdentifier.id).toBe(ids[1]);

    // Deleting answers null for what did not exist.
    const del = await gql.query<{ metafieldsDelete: { deletedMetafields: unknown[] } }>(METAFIELDS_DELETE, {
      metafields: [
        { ownerId: ids[1], namespace: "$app:reviews", key: "snapshot" },
        { ownerId: ids[2], namespace: "$app:reviews", key: "snapshot" },
      ],
    });
    expect(del.metafieldsDelete.deletedMetafields).toEqual([
      { ownerId: ids[1], namespace: "$app:reviews", key: "snapshot" },
      null,
    ]);
    expect(store.metafield(ids[1], "$app:reviews", "snapshot")).toBeNull();
  });

  it("refuses more than 25 a call, JSON over 128 KB and unknown owners, the way Shopify answers", async () => {
    const { store, gql, ids } = await start();
    const many = Array.from({ length: 26 }, (_, i) => ({
      ownerId: ids[0],
      namespace: "$app:reviews",
      key: `k${i}`,
      type: "json",
      value: "{}",
    }));
    await expect(gql.query(METAFIELDS_SET, { metafields: many })).rejects.toThrow(
      /greater than the maximum allowed of 25/,
    );

    const big = JSON.stringify({ text: "x".repeat(128 * 1024) });
    const answer = await gql.query<SetAnswer>(METAFIELDS_SET, {
      metafields: [
        { ownerId: ids[0], namespace: "$app:reviews", key: "snapshot", type: "json", value: "{}" },
        { ownerId: ids[0], namespace: "$app:reviews", key: "big", type: "json", value: big },
        {
          ownerId: "gid://shopify/Product/1",
          namespace: "reviews",
          key: "rating_count",
          type: "number_integer",
          value: "1",
        },
      ],
    });
    expect(answer.metafieldsSet.userErrors.map((e) => [e.elementIndex, e.code])).toEqual([
      [1, "TOO_LONG"],
      [2, "INVALID"],
    ]);
    expect(store.metafields(ids[0])).toEqual([]);
  });

  it("keeps app-data metafields on the app installation and records Flow triggers; charges cost", async () => {
    const { store, gql } = await start();
    const inst = await gql.request<{ currentAppInstallation: { id: string; metafields: { nodes: unknown[] } } }>(
      CURRENT_APP_INSTALLATION,
      { namespace: "reviews" },
    );
    expect(inst.data.currentAppInstallation.id).toBe(store.appInstallationId);
    expect(inst.cost?.actualQueryCost).toBeGreaterThan(0);
    const set = await gql.request<SetAnswer>(METAFIELDS_SET, {
      metafields: [
        { ownerId: store.appInstallationId, namespace: "reviews", key: "shop", type: "json", value: '{"v":1}' },
      ],
    });
    expect(set.data.metafieldsSet.userErrors).toEqual([]);
    expect(set.cost?.requestedQueryCost).toBe(10);
    const after = await gql.query<{
      currentAppInstallation: { metafields: { nodes: { key: string; value: string }[] } };
    }>(CURRENT_APP_INSTALLATION, { namespace: "reviews" });
    expect(after.currentAppInstallation.metafields.nodes).toMatchObject([{ key: "shop", value: '{"v":1}' }]);

    await gql.query(FLOW_TRIGGER_RECEIVE, { handle: "review-published", payload: { review_id: "r1" } });
    expect(store.flowTriggers).toMatchObject([{ handle: "review-published", payload: { review_id: "r1" } }]);

    // An empty bucket answers THROTTLED, recorded as such.
    store.setAvailablePoints(0);
    const raw = await fetch(store.graphqlEndpoint, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Shopify-Access-Token": store.accessToken },
      body: JSON.stringify({ query: METAFIELDS_SET, variables: { metafields: [] } }),
    });
    const body = (await raw.json()) as { errors: { extensions: { code: string } }[] };
    expect(body.errors[0].extensions.code).toBe("THROTTLED");
    expect(store.requests.at(-1)).toMatchObject({ operationName: "MetafieldsSet", throttled: true });
  });
});
