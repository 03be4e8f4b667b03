import { describe, expect, it } from "vitest";
import { adminSchema, inspectDocument } from "../../test/helpers/admin-schema";
import { discoverDocuments } from "../../test/helpers/admin-documents";
import { appToml } from "../../test/helpers/app-toml";
import { configSchema } from "./config";
import { ACCESS_SCOPES, REQUESTED_SCOPES, type ScopeUse } from "./access-scopes";

// The scopes the app asks for are the ones Shopify lists, each used by what its features name, and
// enough for everything the app sends and subscribes to. What each document and webhook topic
// needs comes from Shopify's schema (test/helpers/admin-schema.ts), not from this file.

/** Scopes for app configuration rather than API data, which the Admin schema does not name. */
const CONFIGURATION_SCOPES: Record<string, { section: string; source: string }> = {
  // Shopify's app proxy guide: an [app_proxy] section needs this scope.
  write_app_proxy: { section: "app_proxy", source: "https://shopify.dev/docs/apps/build/online-store/app-proxies" },
};

const toml = appToml();

/** A scope grants itself and, when it writes, the reading of the same resource. */
function grants(scope: string): string[] {
  return scope.startsWith("write_") ? [scope, `read_${scope.slice("write_".length)}`] : [scope];
}

const satisfies = (scopes: readonly string[], anyOf: readonly string[]) =>
  scopes.some((s) => grants(s).some((g) => anyOf.includes(g)));

// What each operation (by name), bulk builder and subscribed topic needs, from the schema.
const { documents } = discoverDocuments();
const needs = new Map<string, string[][]>();
for (const d of documents) {
  const key = d.operation ?? d.name.replace(/\(.*/, "");
  const groups = [...inspectDocument(d.source).scopes.values()];
  needs.set(key, [...(needs.get(key) ?? []), ...groups]);
}
const unknownTopics: string[] = [];
for (const topic of toml.topics) {
  const anyOf = adminSchema().topicScopes.get(topic);
  if (anyOf === undefined) unknownTopics.push(topic);
  else needs.set(topic, anyOf.length > 0 ? [anyOf] : []);
}

const uses: [string, ScopeUse][] = Object.entries(ACCESS_SCOPES).flatMap(([scope, list]) =>
  list.map((u): [string, ScopeUse] => [scope, u]),
);

describe("access scopes", () => {
  it("GIVEN shopify.app.toml and the SCOPES default THEN both request exactly the scopes of the list", () => {
    expect([...toml.scopes].sort()).toEqual(Object.keys(ACCESS_SCOPES).sort());
    expect(configSchema.shape.SCOPES.parse(undefined)).toBe(REQUESTED_SCOPES);
  });

  it("GIVEN each scope THEN Shopify lists it (the Admin schema names it, or it is a documented configuration scope)", () => {
    const known = adminSchema().knownScopes;
    const unknown = Object.keys(ACCESS_SCOPES).filter((s) => !known.has(s) && !(s in CONFIGURATION_SCOPES));
    expect(unknown).toEqual([]);
    // The one the list used to carry: metafields are written with their owner's scope.
    expect(known.has("write_metafields")).toBe(false);
  });

  it("GIVEN the subscribed webhook topics THEN each is a topic of the schema (so what it needs is known)", () => {
    expect(unknownTopics).toEqual([]);
    expect(needs.get("fulfillment_events/create")).toEqual([["read_fulfillments"]]);
  });

  it("GIVEN each write scope THEN something writes with it (reading alone asks for the read scope)", () => {
    const readOnly = Object.entries(ACCESS_SCOPES)
      .filter(([scope]) => scope.startsWith("write_") && !(scope in CONFIGURATION_SCOPES))
      .filter(
        ([scope, list]) =>
          !(list as readonly ScopeUse[]).some(
            (u) =>
              u.writesOwnedMetafields ||
              u.by.some((item) => (needs.get(item) ?? []).some((anyOf) => anyOf.includes(scope))),
          ),
      )
      .map(([scope]) => scope);
    expect(readOnly).toEqual([]);
  });

  it("GIVEN each use THEN what it names exists: an operation, a bulk builder, a subscribed topic or a toml section", () => {
    const missing = uses.flatMap(([scope, u]) =>
      u.by
        .filter((item) => {
          const section = /^\[(.+)\]$/.exec(item)?.[1];
          return section ? !toml.sections.has(section) : !needs.has(item);
        })
        .map((item) => `${scope}: ${item}`),
    );
    expect(missing).toEqual([]);
  });

  it("GIVEN each scope THEN at least one thing its uses name needs it (no scope is asked for nothing)", () => {
    const unused = uses
      .filter(([scope, u]) => {
        const needed = u.by.some((item) => {
          const section = /^\[(.+)\]$/.exec(item)?.[1];
          if (section) return CONFIGURATION_SCOPES[scope]?.section === section;
          return (needs.get(item) ?? []).some(
            (anyOf) => satisfies([scope], anyOf) && (!u.writesOwnedMetafields || scope.startsWith("write_")),
          );
        });
        return !needed;
      })
      .map(([scope, u]) => `${scope}: ${u.feature}`);
    expect(unused).toEqual([]);
  });

  it("GIVEN everything the app sends and subscribes to THEN the scopes cover what each needs, and a use names it", () => {
    const requested = Object.keys(ACCESS_SCOPES);
    const named = new Set(uses.flatMap(([, u]) => u.by));
    const uncovered: string[] = [];
    for (const [item, groups] of needs) {
      for (const anyOf of groups)
        if (!satisfies(requested, anyOf)) uncovered.push(`${item} needs one of ${anyOf.join(", ")}`);
      if (groups.length > 0 && !named.has(item))
        uncovered.push(`${item} needs a scope but no use in ACCESS_SCOPES names it`);
    }
    expect(uncovered).toEqual([]);
  });

  it("GIVEN a scope list without what the orders need THEN the check reports it (it can fail)", () => {
    const withoutOrders = Object.keys(ACCESS_SCOPES).filter((s) => s !== "read_orders");
    expect(needs.get("orders/create")!.every((anyOf) => satisfies(withoutOrders, anyOf))).toBe(false);
    expect(needs.get("CustomerConsent")!.every((anyOf) => satisfies(["write_products"], anyOf))).toBe(false);
    expect(satisfies(["write_products"], ["read_products"])).toBe(true);
  });
});
