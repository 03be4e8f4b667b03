import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../../../test/helpers/db";
import { parseConsentWebhook, type ConsentTopic } from "./consent-webhooks";
import { createConsentRepository, statesOf } from "./consent.repository";

// The consent webhooks as Shopify sends them (test/fixtures/customers) and the store that keeps
// what they say, newest first, on a real database.

const fixture = (topic: ConsentTopic) =>
  JSON.parse(readFileSync(`test/fixtures/customers/${topic.replace("/", "-")}.json`, "utf8")) as Record<
    string,
    unknown
  >;

describe("consent webhooks", () => {
  it("GIVEN each topic's payload THEN the customer id, channel, state and Shopify's time, no contact data", () => {
    expect(
      parseConsentWebhook(
        "customers_email_marketing_consent/update",
        fixture("customers_email_marketing_consent/update"),
      ),
    ).toEqual({
      customerId: "7412345678901",
      channel: "email",
      consent: { state: "unsubscribed", updatedAt: new Date("2026-11-20T21:05:11Z") },
    });
    expect(
      parseConsentWebhook("customers_marketing_consent/update", fixture("customers_marketing_consent/update")),
    ).toEqual({
      customerId: "7412345678901",
      channel: "sms",
      consent: { state: "subscribed", updatedAt: new Date("2026-11-20T21:07:42Z") },
    });
    expect(
      parseConsentWebhook(
        "customers_whats_app_marketing_consent/update",
        fixture("customers_whats_app_marketing_consent/update"),
      ),
    ).toEqual({
      customerId: "7412345678901",
      channel: "whatsapp",
      consent: { state: "subscribed", updatedAt: new Date("2026-11-20T21:09:03Z") },
    });
  });

  it("GIVEN a consent that never changed (no time) THEN its time is null", () => {
    const p = fixture("customers_email_marketing_consent/update");
    p.email_marketing_consent = { state: "not_subscribed", opt_in_level: null, consent_updated_at: null };
    expect(parseConsentWebhook("customers_email_marketing_consent/update", p)).toMatchObject({
      consent: { state: "not_subscribed", updatedAt: null },
    });
  });

  it("GIVEN a payload without customer, consent or a known state THEN a reason, not an event", () => {
    const p = fixture("customers_marketing_consent/update");
    expect(parseConsentWebhook("customers_marketing_consent/update", { ...p, id: null })).toEqual({
      error: expect.stringContaining("no customer id"),
    });
    expect(parseConsentWebhook("customers_marketing_consent/update", { id: 1 })).toEqual({
      error: expect.stringContaining("sms_marketing_consent"),
    });
    expect(
      parseConsentWebhook("customers_marketing_consent/update", { id: 1, sms_marketing_consent: { state: "maybe" } }),
    ).toEqual({
      error: expect.stringContaining("unknown consent state"),
    });
    expect(parseConsentWebhook("customers_marketing_consent/update", "[]")).toHaveProperty("error");
  });
});

describe("consent store", () => {
  let t: TestDb;
  let shopId: string;
  beforeAll(async () => {
    t = await createTestDb("sqlite");
    shopId = (await t.db.shop.create({ data: { domain: "consent-store.myshopify.com" } })).id;
  });
  afterAll(async () => t.drop());
  const at = (s: string) => new Date(s);

  it("GIVEN consent events out of order THEN the newer consent_updated_at wins, per channel", async () => {
    const repo = createConsentRepository(t.db);
    expect(
      await repo.record(shopId, "1", { email: { state: "unsubscribed", updatedAt: at("2026-11-20T12:00:00Z") } }),
    ).toEqual(["email"]);
    // Older, delivered later: dropped.
    expect(
      await repo.record(shopId, "1", { email: { state: "subscribed", updatedAt: at("2026-11-19T12:00:00Z") } }),
    ).toEqual([]);
    // A report without a time (never changed) never overwrites a timed one.
    expect(await repo.record(shopId, "1", { email: { state: "not_subscribed", updatedAt: null } })).toEqual([]);
    // Another channel is independent of the first.
    expect(
      await repo.record(shopId, "1", { sms: { state: "subscribed", updatedAt: at("2026-11-01T00:00:00Z") } }),
    ).toEqual(["sms"]);
    expect(statesOf(await repo.get(shopId, "1"))).toEqual({ email: "unsubscribed", sms: "subscribed" });
    // Newer: applied; equal time: the later arrival wins.
    expect(
      await repo.record(shopId, "1", { email: { state: "subscribed", updatedAt: at("2026-11-21T12:00:00Z") } }),
    ).toEqual(["email"]);
    expect(
      await repo.record(shopId, "1", { email: { state: "pending", updatedAt: at("2026-11-21T12:00:00Z") } }),
    ).toEqual(["email"]);
    expect((await repo.get(shopId, "1"))?.channels.email).toEqual({
      state: "pending",
      updatedAt: at("2026-11-21T12:00:00Z"),
    });
  });

  it("GIVEN a read THEN it is marked, and several writers at once lose nothing", async () => {
    const repo = createConsentRepository(t.db);
    await Promise.all([
      repo.record(shopId, "2", { email: { state: "subscribed", updatedAt: at("2026-11-20T00:00:00Z") } }),
      repo.record(shopId, "2", { sms: { state: "unsubscribed", updatedAt: at("2026-11-20T00:00:00Z") } }),
      repo.record(
        shopId,
        "2",
        { whatsapp: { state: "subscribed", updatedAt: null } },
        { read: at("2026-11-22T00:00:00Z") },
      ),
    ]);
    const r = await repo.get(shopId, "2");
    expect(statesOf(r)).toEqual({ email: "subscribed", sms: "unsubscribed", whatsapp: "subscribed" });
    expect(r?.readAt).toEqual(at("2026-11-22T00:00:00Z"));
    expect(await repo.get(shopId, "3")).toBeNull();
  });

  it("GIVEN redaction THEN the customer's record goes (customers/redact), then the shop's (shop/redact)", async () => {
    const repo = createConsentRepository(t.db);
    expect(await repo.deleteCustomer(shopId, "1")).toBe(1);
    expect(await repo.get(shopId, "1")).toBeNull();
    expect(await repo.get(shopId, "2")).not.toBeNull();
    expect(await repo.deleteShop(shopId)).toBe(1);
    expect(await t.db.customerConsent.count({ where: { shopId } })).toBe(0);
  });
});
