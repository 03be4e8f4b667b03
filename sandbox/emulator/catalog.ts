// Catalog endpoints: `POST /{customer}/products/batch` and `PUT /{customer}/products/{sku}`.
// There is no DELETE (spec: products cannot be deleted through the API); the router answers 405
// with `Allow: PUT` to a DELETE on a product path.
import { badRequest, describeZodError, HttpError, json } from "./http";
import { newId } from "./ids";
import type { Route } from "./router";
import { adminCustomer, type Ctx, type Services } from "./services";
import { applyItem, catalogFieldsSchema, MAX_BATCH_ITEMS, runBatch, type ApplyContext } from "./catalog.rules";
import { productRecord } from "./products.view";

function applyContext(ctx: Ctx): ApplyContext {
  const cs = adminCustomer(ctx);
  const { clock } = ctx.services;
  return {
    customer: cs.customer,
    storeUrl: cs.settings.storeUrl,
    nowIso: clock.iso(),
    newId: () => newId(clock.now()),
  };
}

function batch(ctx: Ctx) {
  const body = ctx.body;
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw badRequest("body must be a JSON object with a products array");
  }
  const products = (body as { products?: unknown }).products;
  if (products === undefined) throw badRequest("products is required");
  if (!Array.isArray(products)) throw badRequest("products must be an array");
  if (products.length === 0) throw badRequest("products must not be empty");
  if (products.length > MAX_BATCH_ITEMS) throw badRequest(`products accepts at most ${MAX_BATCH_ITEMS} items`);
  const cs = adminCustomer(ctx);
  const { summary, writes } = runBatch(products, (sku) => cs.products.get(sku), applyContext(ctx));
  for (const p of writes) cs.products.set(p.sku, p);
  if (writes.length) ctx.services.store.changed();
  return json(200, summary);
}

function putProduct(ctx: Ctx) {
  const sku = ctx.params.sku;
  const body = ctx.body;
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw badRequest("body must be a JSON object", "invalid_body");
  const bodySku = (body as { sku?: unknown }).sku;
  if (bodySku !== undefined && bodySku !== sku)
    throw badRequest("sku in the body differs from the sku in the path", "invalid_body");
  const parsed = catalogFieldsSchema.safeParse(body);
  if (!parsed.success) throw badRequest(describeZodError(parsed.error), "invalid_body");
  const cs = adminCustomer(ctx);
  const result = applyItem(cs.products.get(sku), { ...parsed.data, sku }, applyContext(ctx));
  if (result.outcome === "failed") {
    const label = /required/.test(result.error) ? "missing_required" : "invalid_body";
    throw new HttpError(400, label, result.error);
  }
  if (result.outcome !== "unchanged") {
    cs.products.set(sku, result.product);
    ctx.services.store.changed();
  }
  return json(200, productRecord(result.product));
}

export const catalogRoutes: Route<Services>[] = [
  { method: "POST", pattern: "/api/:customer/products/batch", auth: "admin", handler: batch },
  { method: "PUT", pattern: "/api/:customer/products/:sku", auth: "admin", handler: putProduct },
];
