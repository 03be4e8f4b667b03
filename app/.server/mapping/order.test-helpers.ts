import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defaultSettings, type ShopSettings } from "../settings/settings";
import type { OrderMapContext } from "./order.mapper";
import { shopifyOrderSchema, type ShopifyOrder } from "./order.schemas";

// Shared by the order tests: real-shaped webhook payloads from test/fixtures/orders, parsed by the
// same schema the webhook handler uses, and a mapping context with the shop defaults.

const FIXTURES = fileURLToPath(new URL("../../../test/fixtures/orders/", import.meta.url));

export type OrderFixture =
  | "paid-web-customer"
  | "pos-guest"
  | "draft-order"
  | "partially-fulfilled"
  | "delivered"
  | "cancelled-refunded"
  | "test-order"
  | "gift-card-only"
  | "custom-and-removed";

/** A fresh, parsed copy of a fixture: tests may mutate it. */
export function loadOrder(name: OrderFixture): ShopifyOrder {
  return shopifyOrderSchema.parse(JSON.parse(readFileSync(`${FIXTURES}${name}.json`, "utf8")));
}

export const NOW = new Date("2026-11-20T12:00:00Z");

type OrderSettingsPatch = {
  [K in keyof ShopSettings["orders"]]?: Partial<ShopSettings["orders"][K]> | ShopSettings["orders"][K];
};

export function orderSettings(patch: OrderSettingsPatch = {}): ShopSettings["orders"] {
  const base = defaultSettings.orders;
  return {
    ...base,
    ...patch,
    optOut: { ...base.optOut, ...(patch.optOut as object) },
    exclude: { ...base.exclude, ...(patch.exclude as object) },
  } as ShopSettings["orders"];
}

export function mapContext(overrides: Partial<OrderMapContext> = {}): OrderMapContext {
  return {
    settings: orderSettings(),
    variantKeyMode: "id",
    productData: () => undefined,
    now: NOW,
    ...overrides,
  };
}
