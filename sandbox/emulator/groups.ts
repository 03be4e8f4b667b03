// Product groups. A SKU belongs to at most one group: create/update answer 409
// `{message, conflictingSkus}` when a SKU is in ANOTHER group (a group's own SKUs never conflict).
//
// Choices where the spec says "not shown" (also in README.md):
// - `name` must be a non-empty string and `skus` an array of non-empty strings (duplicates dropped,
//   order kept). SKUs not (yet) in the catalog are accepted; `products` lists those that exist.
// - Update takes `name` and/or `skus` (at least one); `skus` replaces the list. `__v` is incremented.
// - List: `skip` default 0, `limit` default 100 (1..500), oldest first.
// - Unknown id: 404.
import { z } from "zod";
import { badRequest, json, noBody, notFound, parseWith, queryInt } from "./http";
import { newId } from "./ids";
import type { Route } from "./router";
import { adminCustomer, type Ctx, type Services } from "./services";
import { unite } from "./catalog.rules";
import { groupProduct } from "./products.view";
import type { CustomerState } from "./store";
import type { StoredGroup } from "./types";

const nonEmpty = z.string().refine((s) => s.trim().length > 0, "must be a non-empty string");
const createSchema = z.object({ name: nonEmpty, skus: z.array(nonEmpty) });
const updateSchema = z.object({ name: nonEmpty.optional(), skus: z.array(nonEmpty).optional() });

function render(cs: CustomerState, g: StoredGroup) {
  return {
    _id: g._id,
    customer: g.customer,
    name: g.name,
    skus: g.skus,
    __v: g.__v,
    products: g.skus.flatMap((sku) => {
      const p = cs.products.get(sku);
      return p ? [groupProduct(p)] : [];
    }),
  };
}

function conflictReply(cs: CustomerState, skus: string[], selfId?: string) {
  const conflictingSkus = skus.filter((sku) => {
    const owner = cs.groupOf(sku);
    return owner !== undefined && owner._id !== selfId;
  });
  if (!conflictingSkus.length) return undefined;
  return json(409, { message: `SKUs already belong to another group: ${conflictingSkus.join(", ")}`, conflictingSkus });
}

function list(ctx: Ctx) {
  const cs = adminCustomer(ctx);
  const skip = queryInt(ctx.query, "skip", { min: 0, fallback: 0 })!;
  const limit = queryInt(ctx.query, "limit", { min: 1, max: 500, fallback: 100 })!;
  const all = [...cs.groups.values()];
  return json(200, { result: all.slice(skip, skip + limit).map((g) => render(cs, g)), total: all.length });
}

function get(ctx: Ctx) {
  const cs = adminCustomer(ctx);
  const g = cs.groups.get(ctx.params.id);
  if (!g) throw notFound(`group ${ctx.params.id} not found`);
  return json(200, render(cs, g));
}

function create(ctx: Ctx) {
  const cs = adminCustomer(ctx);
  const input = parseWith(createSchema, ctx.body ?? {});
  const skus = unite([], input.skus);
  const clash = conflictReply(cs, skus);
  if (clash) return clash;
  const { clock } = ctx.services;
  const g: StoredGroup = {
    _id: newId(clock.now()),
    customer: cs.customer,
    name: input.name.trim(),
    skus,
    created: clock.iso(),
    __v: 0,
  };
  cs.groups.set(g._id, g);
  ctx.services.store.changed();
  return json(200, render(cs, g));
}

function update(ctx: Ctx) {
  const cs = adminCustomer(ctx);
  const g = cs.groups.get(ctx.params.id);
  if (!g) throw notFound(`group ${ctx.params.id} not found`);
  const input = parseWith(updateSchema, ctx.body ?? {});
  if (input.name === undefined && input.skus === undefined) throw badRequest("send name and/or skus");
  const skus = input.skus ? unite([], input.skus) : g.skus;
  const clash = conflictReply(cs, skus, g._id);
  if (clash) return clash;
  const next = { ...g, name: input.name?.trim() ?? g.name, skus, __v: g.__v + 1 };
  cs.groups.set(g._id, next);
  ctx.services.store.changed();
  return json(200, render(cs, next));
}

function remove(ctx: Ctx) {
  const cs = adminCustomer(ctx);
  if (!cs.groups.delete(ctx.params.id)) throw notFound(`group ${ctx.params.id} not found`);
  ctx.services.store.changed();
  return noBody();
}

export const groupRoutes: Route<Services>[] = [
  { method: "GET", pattern: "/api/:customer/products/groups/all", auth: "admin", handler: list },
  { method: "GET", pattern: "/api/:customer/products/groups/:id", auth: "admin", handler: get },
  { method: "POST", pattern: "/api/:customer/products/groups", auth: "admin", handler: create },
  { method: "PUT", pattern: "/api/:customer/products/groups/:id", auth: "admin", handler: update },
  { method: "DELETE", pattern: "/api/:customer/products/groups/:id", auth: "admin", handler: remove },
];
