import { parse } from "graphql";
import { afterEach, describe, expect, it } from "vitest";
import { loadAdminSchema } from "../shopify-schema/schema";
import { QueryRefused, checkedDocument, requestedQueryCost } from "./query-cost";
import { startSimulatedStore, type SimulatedStore } from "./server";

// The requested cost of made-up documents against Shopify's published schema, by the rules of
// Shopify's "Rate limits" page, and the store refusing what Shopify refuses.

const { schema } = loadAdminSchema();
const cost = (source: string, variables: Record<string, unknown> = {}, name?: string) =>
  requestedQueryCost(schema, checkedDocument(schema, source), variables, name);

describe("requested query cost", () => {
  it("GIVEN objects and scalars THEN an object costs 1 and a scalar or enum 0", () => {
    expect(cost("{ shop { id name currencyCode } }")).toBe(1);
    expect(cost("{ shop { id primaryDomain { url host } } }")).toBe(2);
  });

  it("GIVEN a connection THEN 2 + first × (1 + what a node selects), through nodes or edges alike", () => {
    expect(cost("{ products(first: 10) { nodes { id title } } }")).toBe(2 + 10 * 1);
    expect(cost("{ products(first: 10) { edges { cursor node { id } } pageInfo { hasNextPage } } }")).toBe(12);
    expect(cost("{ products(first: 10) { nodes { id category { name } } } }")).toBe(2 + 10 * 2);
  });

  it("GIVEN last instead of first THEN last sizes it", () => {
    expect(cost("{ orders(last: 7) { nodes { id } } }")).toBe(2 + 7);
  });

  it("GIVEN nested connections THEN they multiply", () => {
    const doc = `query($n: Int!) { orders(first: $n) { nodes { id lineItems(first: 50) { nodes { title product { id } } } } } }`;
    expect(cost(doc, { n: 20 })).toBe(2 + 20 * (1 + 2 + 50 * 2));
    expect(cost(doc, { n: 1 })).toBe(2 + 1 * (1 + 2 + 50 * 2));
  });

  it("GIVEN a variable with a default value THEN the default counts when the variable is not sent", () => {
    const doc = "query Page($first: Int = 40) { products(first: $first) { nodes { id } } }";
    expect(cost(doc)).toBe(42);
    expect(cost(doc, { first: 5 })).toBe(7);
  });

  it("GIVEN @skip or @include THEN a skipped field costs nothing", () => {
    const doc = `query($with: Boolean!) {
      shop { id }
      products(first: 10) @include(if: $with) { nodes { id } }
      collections(first: 5) @skip(if: $with) { nodes { id } }
    }`;
    expect(cost(doc, { with: true })).toBe(1 + 12);
    expect(cost(doc, { with: false })).toBe(1 + 7);
  });

  it("GIVEN fragments, inline and named, and a field selected twice THEN each field is counted once", () => {
    const doc = `
      query Frag { products(first: 10) { nodes { ...P ... on Product { category { id } } category { name } } } }
      fragment P on Product { id featuredMedia { preview { image { url } } } }`;
    expect(cost(doc, {}, "Frag")).toBe(2 + 10 * (1 + 3 + 1));
  });

  it("GIVEN an interface or union THEN the most any possible type's selection costs", () => {
    const doc = `query($id: ID!) { node(id: $id) { id ... on Product { category { id } featuredMedia { preview { image { url } } } } ... on Order { customer { id } } } }`;
    expect(cost(doc, { id: "gid://shopify/Product/1" })).toBe(1 + 4);
  });

  it("GIVEN a list of objects with `first` THEN first × the object (no connection overhead)", () => {
    expect(
      cost("query($id: ID!) { order(id: $id) { fulfillments(first: 20) { id trackingInfo(first: 5) { number } } } }", {
        id: "x",
      }),
    ).toBe(1 + 20 * (1 + 5));
  });

  it("GIVEN a mutation THEN 10 a mutation field, whatever it selects; a bulk query inside is not costed", () => {
    expect(
      cost(`mutation { metafieldsDelete(metafields: []) { deletedMetafields { key } userErrors { message } } }`),
    ).toBe(10);
    const bulk = `mutation { bulkOperationRunQuery(query: "{ orders { edges { node { lineItems { edges { node { id } } } } } } }") { bulkOperation { id } userErrors { message } } }`;
    expect(cost(bulk)).toBe(10);
  });

  it("GIVEN a connection without first or last, or an invalid document THEN it is refused as Shopify does", () => {
    expect(() => cost("{ products { nodes { id } } }")).toThrow(/you must provide one of first or last/);
    expect(() => cost("{ shop { notAField } }")).toThrow(QueryRefused);
    expect(() =>
      requestedQueryCost(schema, parse("query($n: Int!) { products(first: $n) { nodes { id } } }"), {}),
    ).toThrow(/\$n/);
  });
});

describe("the simulated store refuses a query over 1,000 requested points", () => {
  let store: SimulatedStore | undefined;
  afterEach(async () => {
    await store?.close();
    store = undefined;
  });

  const post = async (s: SimulatedStore, query: string, variables: Record<string, unknown> = {}) => {
    const res = await fetch(s.graphqlEndpoint, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Shopify-Access-Token": s.accessToken },
      body: JSON.stringify({ query, variables }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it("GIVEN orders(first: 20) with lineItems(first: 50) THEN HTTP 200 with MAX_COST_EXCEEDED in Shopify's shape, the bucket untouched", async () => {
    store = await startSimulatedStore({ throttle: { maximumAvailable: 2000, restoreRate: 100 } });
    store.setAvailablePoints(2000);
    const query = `query CustomerOrders($id: ID!) { customer(id: $id) { orders(first: 20) { nodes { id lineItems(first: 50) { nodes { title product { id handle featuredMedia { preview { image { url } } } } } } } } } }`;
    const { status, body } = await post(store, query, { id: "gid://shopify/Customer/1" });
    expect(status).toBe(200);
    const requested = 1 + 2 + 20 * (1 + 2 + 50 * 5);
    expect(body).toEqual({
      errors: [
        {
          message: expect.stringMatching(
            new RegExp(`^Query cost is ${requested}, which exceeds the single query max cost limit \\(1000\\)\\.`),
          ),
          extensions: {
            code: "MAX_COST_EXCEEDED",
            cost: requested,
            maxCost: 1000,
            documentation: "https://shopify.dev/api/usage/rate-limits",
          },
        },
      ],
    });
    // Nothing was charged: a cheap query right after sees the full bucket less its own cost.
    const probe = await post(store, "query AdminAccessProbe { shop { id } }");
    const cost = (probe.body.extensions as { cost: { throttleStatus: { currentlyAvailable: number } } }).cost;
    expect(cost.throttleStatus.currentlyAvailable).toBeGreaterThanOrEqual(1999);
  });
});
