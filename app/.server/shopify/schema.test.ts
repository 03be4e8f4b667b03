import { describe, expect, it } from "vitest";
import { GraphQLObjectType, getNamedType } from "graphql";
import { adminSchema, inspectDocument } from "../../../test/helpers/admin-schema";
import { discoverDocuments, operationsOutsideModules } from "../../../test/helpers/admin-documents";
import { OVERLAYS } from "../../../sandbox/shopify-schema/overlays";
import { SOURCE, loadAdminSchema } from "../../../sandbox/shopify-schema/schema";
import { SHOPIFY_API_VERSION } from "./api-version";

// Every Admin GraphQL document the app sends validates against Shopify's published schema for the
// app's API version and uses nothing deprecated (deprecated fields are removed in later versions),
// and validates against the next version the schema package ships too (its newest release
// candidate, or `unstable` when that is the app's own version), so a removal is seen before the
// app moves. The schema is the package's plus what Shopify documented that the package lacks
// (sandbox/shopify-schema/overlays.ts: 2026-10's typed barcodes, which deprecate `barcode`).
// The documents are found, not listed (test/helpers/admin-documents.ts); bulk queries, which
// Shopify runs on its side, are validated as queries of their own and held to Shopify's bulk limits.

/**
 * Deprecated fields whose replacement does not exist yet in the app's version: the one way to read
 * what they hold. Each entry fails the test once its replacement appears (the app moved to a
 * version that has it: use it), once it is no longer used, or once it is no longer deprecated.
 */
// None in 2026-10: SMS consent moved to CustomerPhoneNumber.smsMarketingConsent, which 2026-07 lacked.
const NO_REPLACEMENT_YET: Record<string, { replacement: string; why: string }> = {};

/**
 * Deprecated fields a bulk query still reads because their replacement is a connection one level
 * too deep for one: each entry fails the test once the field is no longer deprecated, once its
 * replacement is no longer a connection, or once an ordinary query (which can read the
 * replacement) uses it.
 */
const BULK_ONLY_DEPRECATED: Record<string, { replacement: string; why: string }> = {
  "ProductVariant.barcode": {
    replacement: "ProductVariant.barcodes",
    why: "products > variants > barcodes would nest three connections; a bulk query allows two",
  },
};

// Shopify's limits on a bulk query (bulkOperationRunQuery): five connections, nested two deep.
const BULK_MAX_CONNECTIONS = 5;
const BULK_MAX_DEPTH = 2;

const { documents, unexpected } = discoverDocuments();

function fieldExists(coordinate: string): boolean {
  const [type, field] = coordinate.split(".");
  const t = adminSchema().schema.getType(type);
  return t instanceof GraphQLObjectType && field in t.getFields();
}

describe(`Admin GraphQL documents against Shopify's ${SHOPIFY_API_VERSION} schema`, () => {
  it("GIVEN the documents modules THEN every export is a named operation or a bulk builder with arguments", () => {
    expect(unexpected).toEqual([]);
    // Discovery finds what it should: queries and mutations of both modules, and both bulk builders.
    const names = documents.map((d) => d.operation ?? d.name);
    expect(names).toEqual(
      expect.arrayContaining(["ShopPrimaryDomain", "CustomerConsent", "MetafieldsSet", "FlowTriggerReceive"]),
    );
    expect(documents.filter((d) => d.kind === "bulk").map((d) => d.name.replace(/\(.*/, ""))).toEqual(
      expect.arrayContaining(["bulkProductsQuery", "bulkOrdersQuery"]),
    );
  });

  it("GIVEN the app's source files THEN none but the documents modules holds a GraphQL operation", () => {
    expect(operationsOutsideModules()).toEqual([]);
  });

  it("GIVEN the operations THEN each name is used once (logs, cost tracking and the simulated store key on it)", () => {
    const names = documents.filter((d) => d.kind === "operation").map((d) => d.operation);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  });

  it.each(documents.map((d) => [d.name, d] as const))("%s validates, with nothing deprecated", (_name, doc) => {
    const report = inspectDocument(doc.source);
    expect(report.errors).toEqual([]);
    const deprecated = [...report.deprecated].filter(
      ([coordinate]) =>
        !(coordinate in NO_REPLACEMENT_YET) && !(doc.kind === "bulk" && coordinate in BULK_ONLY_DEPRECATED),
    );
    expect(Object.fromEntries(deprecated)).toEqual({});
  });

  it("GIVEN the deprecated fields allowed in bulk queries THEN each is still deprecated, its replacement a connection, and no ordinary query reads it", () => {
    const { schema } = adminSchema();
    for (const [coordinate, { replacement }] of Object.entries(BULK_ONLY_DEPRECATED)) {
      const [type, field] = coordinate.split(".");
      const def = (schema.getType(type) as GraphQLObjectType).getFields()[field];
      expect(def?.deprecationReason, `${coordinate} is not deprecated: drop it from BULK_ONLY_DEPRECATED`).toBeTruthy();
      const [rType, rField] = replacement.split(".");
      const rDef = (schema.getType(rType) as GraphQLObjectType).getFields()[rField];
      expect(getNamedType(rDef.type).name).toMatch(/Connection$/);
      const readers = documents.filter(
        (d) => d.kind === "operation" && inspectDocument(d.source).deprecated.has(coordinate),
      );
      expect(readers.map((d) => d.name)).toEqual([]);
    }
  });

  it("GIVEN the schema overlays THEN each still adds what the packaged schema lacks (a refreshed package that has it: remove the overlay)", () => {
    const applicable = OVERLAYS.filter((o) => o.appliesTo(SHOPIFY_API_VERSION)).map((o) => o.name);
    expect(loadAdminSchema(SHOPIFY_API_VERSION).overlays.map((o) => o.name)).toEqual(applicable);
    // The one overlay today: the deprecation the package missed is now seen.
    expect(
      inspectDocument("query D($id: ID!) { productVariant(id: $id) { barcode } }").deprecated.has(
        "ProductVariant.barcode",
      ),
    ).toBe(true);
  });

  it.each(documents.filter((d) => d.kind === "bulk").map((d) => [d.name, d] as const))(
    "%s stays within Shopify's bulk query limits",
    (_name, doc) => {
      const { connections } = inspectDocument(doc.source);
      expect(connections.length).toBeGreaterThan(0);
      expect(connections.length).toBeLessThanOrEqual(BULK_MAX_CONNECTIONS);
      expect(Math.max(...connections.map((c) => c.depth))).toBeLessThanOrEqual(BULK_MAX_DEPTH);
    },
  );

  it("GIVEN the deprecated fields allowed for want of a replacement THEN each is still deprecated, still without its replacement, and still used", () => {
    const used = new Set(documents.flatMap((d) => [...inspectDocument(d.source).deprecated.keys()]));
    for (const [coordinate, { replacement }] of Object.entries(NO_REPLACEMENT_YET)) {
      const [type, field] = coordinate.split(".");
      const def = (adminSchema().schema.getType(type) as GraphQLObjectType).getFields()[field];
      expect(
        def?.deprecationReason,
        `${coordinate} is not deprecated in ${SHOPIFY_API_VERSION}: drop it from NO_REPLACEMENT_YET`,
      ).toBeTruthy();
      expect(def.deprecationReason).toContain(replacement.split(".")[1]);
      expect(
        fieldExists(replacement),
        `${replacement} exists in ${SHOPIFY_API_VERSION}: read it instead of ${coordinate}`,
      ).toBe(false);
      expect(used.has(coordinate), `${coordinate} is no longer used: drop it from NO_REPLACEMENT_YET`).toBe(true);
    }
  });

  it("GIVEN documents with mistakes THEN the checks catch them (they can fail)", () => {
    const invalid = inspectDocument("query Broken { shop { id notAField } }");
    expect(invalid.errors.join("\n")).toMatch(/notAField/);
    const old = inspectDocument(
      "query Old($id: ID!) { currentBulkOperation { id } customer(id: $id) { emailMarketingConsent { marketingState } } }",
    );
    expect([...old.deprecated.keys()].sort()).toEqual([
      "Customer.emailMarketingConsent",
      "QueryRoot.currentBulkOperation",
    ]);
    const wide = inspectDocument(
      "{ products { edges { node { variants { edges { node { inventoryItem { inventoryLevels { edges { node { id } } } } } } } } } } }",
    );
    expect(Math.max(...wide.connections.map((c) => c.depth))).toBe(3);
  });
});

describe(`Admin GraphQL documents against the next version the schema package ships (${SOURCE.nextVersion})`, () => {
  const next = SOURCE.nextVersion ?? "unstable";

  it("GIVEN the package's versions THEN the next version is its newest release candidate when newer than the app's, else unstable", () => {
    const rc = SOURCE.releaseCandidate ?? null;
    expect(next).toBe(rc && rc > SHOPIFY_API_VERSION ? rc : "unstable");
  });

  it.each(documents.map((d) => [d.name, d] as const))("%s validates, with nothing deprecated", (_name, doc) => {
    const report = inspectDocument(doc.source, next);
    expect(report.errors).toEqual([]);
    const deprecated = [...report.deprecated].filter(
      ([coordinate]) =>
        !(coordinate in NO_REPLACEMENT_YET) && !(doc.kind === "bulk" && coordinate in BULK_ONLY_DEPRECATED),
    );
    expect(Object.fromEntries(deprecated)).toEqual({});
  });
});
