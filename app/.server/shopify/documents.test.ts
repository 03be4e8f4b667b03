import { describe, expect, it } from "vitest";
import { operationName } from "./admin-graphql";
import * as documents from "./documents";
import * as orderDocuments from "./order-documents";
import { bulkOrdersQuery } from "./order-documents";
import * as productDocuments from "./product-documents";
import { bulkProductsQuery } from "./product-documents";
import * as shopperDocuments from "./shopper-documents";

/** Depth of connections (`edges`) nested in a bulk query: Shopify allows 2. */
function connectionDepths(query: string): number[] {
  const depths: number[] = [];
  let depth = 0;
  const stack: boolean[] = [];
  for (const token of query.match(/edges\s*\{|\{|\}/g) ?? []) {
    if (token === "}") {
      if (stack.pop()) depth--;
    } else {
      const isEdges = token.startsWith("edges");
      if (isEdges) depths.push(++depth);
      stack.push(isEdges);
    }
  }
  return depths;
}

function balanced(s: string): boolean {
  let n = 0;
  for (const ch of s) {
    if (ch === "{") n++;
    if (ch === "}" && --n < 0) return false;
  }
  return n === 0;
}

describe("GraphQL documents", () => {
  it("every document has an operation name (logs, cost tracking and the simulated store key on it)", () => {
    const docs = [documents, productDocuments, orderDocuments, shopperDocuments]
      .flatMap((module) => Object.entries(module))
      .filter(([, v]) => typeof v === "string") as [string, string][];
    expect(docs.length).toBeGreaterThanOrEqual(15);
    for (const [key, doc] of docs) {
      expect(operationName(doc), key).toMatch(/^[A-Z][A-Za-z]+$/);
      expect(balanced(doc), key).toBe(true);
    }
  });

  it("the products bulk query stays within 5 connections and 2 levels of nesting", () => {
    const q = bulkProductsQuery({
      metafieldKeys: ["custom.material", "specs.care_guide"],
      updatedSince: "2026-10-01T00:00:00Z",
    });
    expect(balanced(q)).toBe(true);
    const depths = connectionDepths(q);
    expect(depths.length).toBeLessThanOrEqual(5);
    expect(Math.max(...depths)).toBeLessThanOrEqual(2);
    expect(q).toContain(`products(query: "updated_at:>='2026-10-01T00:00:00Z'")`);
    expect(q).toContain(`metafields(keys: ["custom.material","specs.care_guide"])`);
    expect(bulkProductsQuery({ collections: false })).not.toContain("collections");
  });

  it("the orders bulk query filters on created_at and stays within the limits", () => {
    const q = bulkOrdersQuery({ createdSince: new Date("2026-09-01T00:00:00Z") });
    expect(q).toContain(`orders(query: "created_at:>='2026-09-01T00:00:00.000Z'", sortKey: CREATED_AT)`);
    expect(balanced(q)).toBe(true);
    expect(Math.max(...connectionDepths(q))).toBeLessThanOrEqual(2);
  });

  it("refuses parameters that would change the query's meaning", () => {
    expect(() => bulkProductsQuery({ metafieldKeys: ['x.y") { id } #'] })).toThrow(/bad metafield key/);
    expect(() => bulkOrdersQuery({ createdSince: "yesterday' OR 1" })).toThrow(/not an ISO 8601 date/);
  });
});
