import { readFileSync } from "node:fs";

// Order webhook payloads built from the real-shaped paid web order fixture.

type Json = Record<string, unknown>;

const paidOrder = JSON.parse(readFileSync("test/fixtures/orders/paid-web-customer.json", "utf8")) as Json;

/** The paid fixture as another order of the shop (own id, name and number), with changes. */
export function orderPayload(id: number, patch: Json = {}): Json {
  const number = 1000 + (id % 1000);
  return {
    ...structuredClone(paidOrder),
    id,
    admin_graphql_api_id: `gid://shopify/Order/${id}`,
    name: `#${number}`,
    order_number: number,
    ...patch,
  };
}
