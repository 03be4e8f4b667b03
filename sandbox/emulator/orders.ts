// Admin order endpoints: create (v1 and v2), update, and the rating link.
//
// Choices where the spec says "not shown" (also in README.md):
// - A version 1 POST of an orderId that already exists (whatever version created it) answers
//   409 `{error: "duplicate", message}` and leaves the stored order untouched.
// - A version 2 POST of an existing order updates the fields it sends (items replaced whole when
//   sent) and increments `__v`; `PUT /orders/{orderId}` increments it too.
// - `version` other than 1 or 2 answers 400.
// - Rating link: `GET /{customer}/rating-link/{orderId}` (the client's RATING_LINK_ROUTE) →
//   `{link}`, the rate page of the order with its verification token; 404 for an unknown order.
// - An empty update body answers 400 (nothing to update).
import { badRequest, conflict, json, noBody, notFound, parseWith } from "./http";
import { newId, randomToken } from "./ids";
import type { Route } from "./router";
import { adminCustomer, type Ctx, type Services } from "./services";
import { normalizeUrl } from "./catalog.rules";
import { orderRecord, orderUpdateSchema, orderV1Schema, orderV2Schema } from "./orders.rules";
import type { StoredOrder } from "./types";
import { RATING_LINK_ROUTE } from "../../app/.server/reviews";

/** Opaque token that lets a buyer rate the products of one order (rate page, find endpoints). */
export function newVerificationToken(): string {
  return randomToken(18);
}

export function rateLink(base: string, customer: string, order: StoredOrder): string {
  return `${base}/rate/${encodeURIComponent(customer)}/${encodeURIComponent(order.verificationTokenId)}/${encodeURIComponent(order.orderId)}`;
}

/** A new stored order: the service's defaults, then the fields sent. */
function newOrder(
  ctx: Ctx,
  cs: ReturnType<typeof adminCustomer>,
  fields: object,
  orderId: string,
  version: 1 | 2,
  now: string,
): StoredOrder {
  return {
    _id: newId(ctx.services.clock.now()),
    customer: cs.customer,
    verificationTokenId: newVerificationToken(),
    optOutEmail: false,
    optOutSMS: false,
    optOutWhatsApp: false,
    status: "created",
    createdDate: now,
    items: [],
    ...definedOnly(fields),
    orderId,
    version,
    __v: 0,
    created: now,
    updated: now,
  } as StoredOrder;
}

function createOrder(ctx: Ctx) {
  const body = ctx.body;
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw badRequest("body must be a JSON object");
  const version = (body as { version?: unknown }).version;
  if (version !== undefined && version !== 1 && version !== 2) throw badRequest("version must be 1 or 2");
  const cs = adminCustomer(ctx);
  const { clock } = ctx.services;
  const now = clock.iso();

  if (version === 2) {
    const input = parseWith(orderV2Schema, body);
    for (const item of input.items ?? []) {
      // Spec: `categoryName` is the alternative form, "converted into an array".
      if (item.productData?.categoryName !== undefined && item.productData.categories === undefined) {
        item.productData.categories = [item.productData.categoryName];
      }
      if (item.productData?.url !== undefined) {
        const url = normalizeUrl(item.productData.url, cs.settings.storeUrl);
        if (url === null) throw badRequest(`items: productData.url of ${item.productId} is not a valid URL`);
        item.productData.url = url;
      }
    }
    const { version: _v, ...fields } = input;
    const existing = cs.orders.get(input.orderId);
    let order: StoredOrder;
    if (existing) {
      order = { ...existing, ...definedOnly(fields), version: 2, __v: existing.__v + 1, updated: now };
    } else {
      order = newOrder(ctx, cs, fields, input.orderId, 2, now);
    }
    cs.orders.set(order.orderId, order);
    ctx.services.store.changed();
    return json(200, orderRecord(order));
  }

  const input = parseWith(orderV1Schema, body);
  if (cs.orders.has(input.orderId)) {
    throw conflict(`order ${input.orderId} already exists; version 1 does not update orders`, "duplicate");
  }
  const { version: _v, ...fields } = input;
  const order = newOrder(ctx, cs, fields, input.orderId, 1, now);
  cs.orders.set(order.orderId, order);
  ctx.services.store.changed();
  return noBody();
}

function updateOrder(ctx: Ctx) {
  const cs = adminCustomer(ctx);
  const order = cs.orders.get(ctx.params.orderId);
  if (!order) throw notFound(`order ${ctx.params.orderId} not found`);
  const input = parseWith(orderUpdateSchema, ctx.body ?? {});
  if (Object.values(input).every((v) => v === undefined)) {
    throw badRequest("nothing to update: send created, status, authorizedDate or deliveredDate");
  }
  if (input.created !== undefined) order.createdDate = input.created;
  if (input.status !== undefined) order.status = input.status;
  if (input.authorizedDate !== undefined) order.authorizedDate = input.authorizedDate;
  if (input.deliveredDate !== undefined) order.deliveredDate = input.deliveredDate;
  order.__v++;
  order.updated = ctx.services.clock.iso();
  ctx.services.store.changed();
  return noBody();
}

function ratingLink(ctx: Ctx) {
  const cs = adminCustomer(ctx);
  const order = cs.orders.get(ctx.params.orderId);
  if (!order) throw notFound(`order ${ctx.params.orderId} not found`);
  return json(200, { link: rateLink(ctx.services.urls.rateUrl, cs.customer, order) });
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export const orderRoutes: Route<Services>[] = [
  { method: "POST", pattern: "/api/:customer/orders", auth: "admin", handler: createOrder },
  { method: "PUT", pattern: "/api/:customer/orders/:orderId", auth: "admin", handler: updateOrder },
  {
    method: RATING_LINK_ROUTE.method,
    pattern: `/api${RATING_LINK_ROUTE.path.replace(/\{(\w+)\}/g, ":$1")}`,
    auth: "admin",
    handler: ratingLink,
  },
];
