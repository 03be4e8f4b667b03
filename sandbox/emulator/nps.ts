// `GET /{customer}/nps/responses`.
//
// Choices where the spec says "not shown" or conflicts (also in README.md):
// - The array is named `results` (the field table), not `result` (the sample): `{results, total}`.
// - `sku` keeps responses whose order contains that product. Page size 50, `limit` accepted.
// - Default sort `created,-1`; `from`/`to` are inclusive UTC days on `created`.
// - Partial (auto-saved, not submitted) answers are included; `partial` tells them apart.
import { badRequest, compareValues, json, parseFieldDirection, queryDay, queryString } from "./http";
import { itemProductSku } from "./orders.rules";
import type { Route } from "./router";
import { adminCustomer, type Ctx, type Services } from "./services";
import { pageParams } from "./reviews";
import type { StoredNps } from "./types";

const TYPES = {
  all: () => true,
  promoters: (n: number) => n >= 9,
  neutral: (n: number) => n === 7 || n === 8,
  detractors: (n: number) => n <= 6,
} as const;

function listResponses(ctx: Ctx) {
  const cs = adminCustomer(ctx);
  const q = ctx.query;
  const type = queryString(q, "type") ?? "all";
  if (!(type in TYPES)) throw badRequest(`type must be one of ${Object.keys(TYPES).join(", ")}`);
  const inType = TYPES[type as keyof typeof TYPES];
  const sort = parseFieldDirection(
    queryString(q, "sort"),
    ["created", "rating"],
    { field: "created", dir: -1 },
    "sort",
  );
  const from = queryDay(q, "from", "start");
  const to = queryDay(q, "to", "end");
  const { skip, limit } = pageParams(q, ctx.services.adminPageSize);
  const sku = queryString(q, "sku");
  const ordersWithSku =
    sku === undefined
      ? undefined
      : new Set(
          [...cs.orders.values()].filter((o) => o.items.some((i) => itemProductSku(i) === sku)).map((o) => o.orderId),
        );
  const found = [...cs.nps.values()].filter((n) => {
    if (!inType(n.rating)) return false;
    const created = Date.parse(n.created);
    if (from !== undefined && created < from) return false;
    if (to !== undefined && created > to) return false;
    if (ordersWithSku && !ordersWithSku.has(n.orderId)) return false;
    return true;
  });
  const key = sort.field as keyof StoredNps;
  found.sort((a, b) => sort.dir * compareValues(a[key], b[key]) || sort.dir * compareValues(a._id, b._id));
  return json(200, { results: found.slice(skip, skip + limit), total: found.length });
}

export const npsRoutes: Route<Services>[] = [
  { method: "GET", pattern: "/api/:customer/nps/responses", auth: "admin", handler: listResponses },
];
