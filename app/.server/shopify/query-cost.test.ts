import { describe, expect, it } from "vitest";
import {
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLScalarType,
  Kind,
  parse,
  typeFromAST,
  type GraphQLInputType,
  type OperationDefinitionNode,
} from "graphql";
import { loadAdminSchema } from "../../../sandbox/shopify-schema/schema";
import { MAX_QUERY_COST, requestedQueryCost } from "../../../sandbox/simulated-store/query-cost";
import { RATINGS_PAGE } from "../../../sandbox/dev-local/demo-ratings";
import { PRODUCTS_PAGE as STOREFRONT_PRODUCTS_PAGE } from "../../../sandbox/local-storefront/store-reader";
import { discoverDocuments } from "../../../test/helpers/admin-documents";
import { ORDERS_PER_PAGE } from "../storefront/order-reviews/customer-orders";
import { ORDERS_PAGE } from "./order-documents";
import { MAX_PAGE, ordersPageSize, productsPageSize } from "./paged-reads";
import { PRODUCTS_PAGE } from "./product-documents";

// Every Admin document the app sends, costed as Shopify costs it before running it (the simulated
// store's calculator, sandbox/simulated-store/query-cost.ts) with the largest variables the app
// sends, stays within Shopify's single-query limit of 1,000 requested points. Bulk queries are
// exempt (Shopify runs them on its side); bulkOperationRunQuery itself is a mutation of 10.

const { schema } = loadAdminSchema();

// Where the app sizes a page at run time: every Int variable of every document has its largest
// values here, read from the constants the callers use. A new Int variable without an entry fails.
const METAFIELD_KEY_COUNTS = [0, 1, 3, 10, 25, 50];
// A Boolean given here goes with its Ints (the page size the reader computes for those options);
// the others are tried both ways.
const LARGEST_INTS: Record<string, Record<string, number | boolean>[]> = {
  ProductsPage: [true, false].flatMap((collections) =>
    METAFIELD_KEY_COUNTS.map((keys) => ({
      first: productsPageSize({ collections, metafieldKeys: keys }),
      metafieldsFirst: Math.max(1, keys),
      withCollections: collections,
      withMetafields: keys > 0,
    })),
  ),
  OrdersPage: [{ first: ordersPageSize() }],
  CustomerOrders: [{ first: ORDERS_PER_PAGE }],
  ProductRatings: [{ first: RATINGS_PAGE }],
  ProductsWithMetafields: [{ first: STOREFRONT_PRODUCTS_PAGE }],
};

/** A value of an input type, for variables whose size does not change the cost (ids, strings, inputs). */
function sample(type: GraphQLInputType): unknown {
  if (type instanceof GraphQLNonNull) return sample(type.ofType);
  if (type instanceof GraphQLList) return [sample(type.ofType)];
  if (type instanceof GraphQLEnumType) return type.getValues()[0]!.value;
  if (type instanceof GraphQLInputObjectType) {
    const out: Record<string, unknown> = {};
    for (const f of Object.values(type.getFields())) if (f.type instanceof GraphQLNonNull) out[f.name] = sample(f.type);
    return out;
  }
  const scalar = (type as GraphQLScalarType).name;
  if (scalar === "Boolean") return true;
  if (scalar === "Int" || scalar === "Float") return 1;
  if (scalar === "JSON") return {};
  if (scalar === "DateTime") return "2026-11-29T00:00:00Z";
  if (scalar === "URL") return "https://example.com";
  return "gid://shopify/Product/1";
}

/** Every variable set to try: the largest Ints, every combination of the Booleans (they switch fields). */
function variableSets(
  op: OperationDefinitionNode,
  name: string,
): { sets: Record<string, unknown>[]; missing: string[] } {
  const base: Record<string, unknown> = {};
  const booleans: string[] = [];
  const ints: string[] = [];
  for (const v of op.variableDefinitions ?? []) {
    const type = typeFromAST(schema, v.type) as GraphQLInputType;
    const named = type instanceof GraphQLNonNull ? type.ofType : type;
    const key = v.variable.name.value;
    if (named instanceof GraphQLScalarType && named.name === "Boolean") booleans.push(key);
    else if (named instanceof GraphQLScalarType && named.name === "Int") ints.push(key);
    else if (type instanceof GraphQLNonNull) base[key] = sample(type);
  }
  const largest = LARGEST_INTS[name] ?? [{}];
  const missing = ints.filter((k) => !largest.every((set) => k in set)).map((k) => `${name}.$${k}`);
  let sets = largest.map((ints) => ({ ...base, ...ints }));
  for (const b of booleans)
    sets = sets.flatMap((s) =>
      b in s
        ? [s]
        : [
            { ...s, [b]: true },
            { ...s, [b]: false },
          ],
    );
  return { sets, missing };
}

const { documents } = discoverDocuments();
const operations = documents.filter((d) => d.kind === "operation");

describe("every Admin document within Shopify's 1,000-point single-query limit", () => {
  it("GIVEN the documents' Int variables THEN each has its largest values here (a page size is never unchecked)", () => {
    const missing = operations.flatMap(
      (d) => variableSets(parse(d.source).definitions[0] as OperationDefinitionNode, d.operation!).missing,
    );
    expect(missing).toEqual([]);
  });

  it.each(operations.map((d) => [d.operation!, d] as const))("%s requests at most 1,000 points", (name, doc) => {
    const ast = parse(doc.source);
    const op = ast.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
    const costs = variableSets(op, name).sets.map((v) => requestedQueryCost(schema, ast, v, name));
    expect(Math.max(...costs)).toBeLessThanOrEqual(MAX_QUERY_COST);
  });

  it("GIVEN the paged reads THEN each page is the largest whose requested cost stays within the limit", () => {
    const cost = (doc: string, v: Record<string, unknown>) => requestedQueryCost(schema, parse(doc), v);
    for (const collections of [true, false]) {
      for (const keys of METAFIELD_KEY_COUNTS) {
        const first = productsPageSize({ collections, metafieldKeys: keys });
        const v = {
          withCollections: collections,
          withMetafields: keys > 0,
          metafieldKeys: [],
          metafieldsFirst: Math.max(1, keys),
        };
        expect(first).toBeGreaterThan(0);
        expect(first).toBeLessThanOrEqual(MAX_PAGE);
        expect(cost(PRODUCTS_PAGE, { ...v, first })).toBeLessThanOrEqual(MAX_QUERY_COST);
        if (first < MAX_PAGE) expect(cost(PRODUCTS_PAGE, { ...v, first: first + 1 })).toBeGreaterThan(MAX_QUERY_COST);
      }
    }
    const orders = ordersPageSize();
    expect(cost(ORDERS_PAGE, { first: orders, query: "" })).toBeLessThanOrEqual(MAX_QUERY_COST);
    expect(cost(ORDERS_PAGE, { first: orders + 1, query: "" })).toBeGreaterThan(MAX_QUERY_COST);
  });
});
