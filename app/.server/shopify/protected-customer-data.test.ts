import { describe, expect, it } from "vitest";
import { adminSchema, inspectDocument } from "../../../test/helpers/admin-schema";
import { discoverDocuments } from "../../../test/helpers/admin-documents";
import { appToml } from "../../../test/helpers/app-toml";
import { PROTECTED_CUSTOMER_DATA, type DataUse, type ProtectedField } from "./protected-customer-data";

// The declaration of protected customer data matches what the app's Admin documents select
// (Shopify's schema marks each protected field: name, email, phone, address), names only things
// that exist, and asks for the level those fields need. Webhook payloads are not in the schema:
// the topics a declaration names must at least be ones the app subscribes to.

const ALL_FIELDS: ProtectedField[] = ["name", "email", "phone", "address"];
const declared: Partial<Record<ProtectedField, DataUse>> = PROTECTED_CUSTOMER_DATA.fields;
const notRequested: Partial<Record<ProtectedField, string>> = PROTECTED_CUSTOMER_DATA.notRequested;

// Per operation (by name) or bulk builder: the protected fields it selects, and whether it reaches
// customer data at all (it selects a Customer or an Order).
const reads = new Map<string, Set<string>>();
const customerData = new Set<string>();
for (const d of discoverDocuments().documents) {
  const key = d.operation ?? d.name.replace(/\(.*/, "");
  const report = inspectDocument(d.source);
  const set = reads.get(key) ?? new Set<string>();
  for (const content of report.protectedData.values()) set.add(content);
  reads.set(key, set);
  if (report.scopes.has("Customer") || report.scopes.has("Order")) customerData.add(key);
}
const topics = new Set(appToml().topics);

describe("protected customer data", () => {
  it("GIVEN every Admin document THEN each protected field it selects is declared, naming that document", () => {
    const undeclared: string[] = [];
    for (const [op, contents] of reads) {
      for (const content of contents) {
        const use = declared[content as ProtectedField];
        if (!use?.by.includes(op)) undeclared.push(`${op} reads ${content}`);
      }
    }
    expect(undeclared).toEqual([]);
  });

  it("GIVEN each declared field THEN what it names exists, and each document it names does select that field", () => {
    const wrong: string[] = [];
    for (const [field, use] of Object.entries(declared) as [ProtectedField, DataUse][]) {
      for (const item of use.by) {
        if (reads.has(item)) {
          if (!reads.get(item)!.has(field)) wrong.push(`${field}: ${item} does not select it`);
        } else if (!topics.has(item)) wrong.push(`${field}: ${item} is neither a document nor a subscribed topic`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("GIVEN the fields not requested THEN no document selects them, and every protected field is either requested or explained", () => {
    for (const field of Object.keys(notRequested))
      expect(
        [...reads].filter(([, c]) => c.has(field)).map(([op]) => op),
        field,
      ).toEqual([]);
    expect([...Object.keys(declared), ...Object.keys(notRequested)].sort()).toEqual([...ALL_FIELDS].sort());
    // The schema marks these very fields: the names above are Shopify's.
    expect(new Set(adminSchema().protectedOf.values())).toEqual(new Set(ALL_FIELDS));
  });

  it("GIVEN the level THEN it is 2 exactly when a protected field is requested", () => {
    expect(PROTECTED_CUSTOMER_DATA.level).toBe(Object.keys(declared).length > 0 ? 2 : 1);
  });

  it("GIVEN every document reaching orders or customers THEN the customer data declaration names it, and names nothing else", () => {
    const named = new Set<string>(PROTECTED_CUSTOMER_DATA.customerData.by);
    expect([...customerData].filter((op) => !named.has(op))).toEqual([]);
    expect([...named].filter((item) => !customerData.has(item) && !topics.has(item))).toEqual([]);
  });

  it("GIVEN a document selecting an undeclared field THEN the check finds it (it can fail)", () => {
    const report = inspectDocument("query Addresses($id: ID!) { order(id: $id) { shippingAddress { address1 zip } } }");
    expect(new Set(report.protectedData.values())).toEqual(new Set(["address"]));
    expect(declared.address).toBeUndefined();
  });
});
