import { fromGraphqlProduct, fromWebhookProduct, mapProduct, webhookProductDeleteSchema, webhookProductSchema } from "../../app/.server/mapping/product.mapper";
import { productGid, productKey } from "../../app/.server/mapping/keys";
import { fetchProduct } from "../../app/.server/shopify/queries";
import { stageProduct } from "../../app/.server/catalog/stage";
import type { TopicHandler } from "./registry";
import { PermanentJobError } from "./errors";
import { syncShop } from "./sync-shop";
import { scheduleFlushAfterStage } from "./catalog.processor";

// products/create and products/update: map, skip when the service already has this payload,
// otherwise stage it for the shop's next batch.
export const productUpserted: TopicHandler = async (delivery, ctx) => {
  const shop = await syncShop(ctx, delivery.shop);
  if (!shop) return;
  const parsed = webhookProductSchema.safeParse(delivery.payload);
  if (!parsed.success) throw new PermanentJobError(`product payload unusable: ${parsed.error.issues[0]?.path.join(".")} ${parsed.error.issues[0]?.message}`);
  const mapCtx = { primaryDomain: shop.primaryDomain, settings: shop.settings.catalog };
  const productId = productKey(parsed.data.id);
  let input = fromWebhookProduct(parsed.data);
  const metafieldKeys = shop.settings.catalog.specificationMetafields;
  // Webhook payloads carry neither metafields nor collections. When the product needs them (chosen
  // metafield specifications; categories that can only come from collections), read it whole, so
  // the live path sends what the full sync sends instead of flipping between the two.
  const needsCollections = !input.productType?.trim() && !input.category?.name && !input.category?.fullName;
  if (metafieldKeys.length || needsCollections) {
    const node = await ctx
      .adminFor(shop.domain)
      .then((gql) => fetchProduct(gql, productGid(parsed.data.id), { metafieldKeys }))
      .catch((error: Error) => {
        if (metafieldKeys.length) throw error; // specifications would be wiped: let the queue retry
        ctx.log.debug({ shop: shop.domain, productId, err: error.message }, "product not re-read; keeping known categories");
        return null;
      });
    if (node) input = fromGraphqlProduct(node);
  }
  let product = mapProduct(input, mapCtx);
  if (input.collections === null && needsCollections) {
    // Not re-read: keep the categories the service already has rather than the default.
    const known = await ctx.mirror.get(shop.id, productId);
    const categories = known?.payload ? (JSON.parse(known.payload) as { categories?: string[] }).categories : undefined;
    if (categories?.length) product = { ...product, categories };
  }
  const result = await stageProduct(ctx, shop.id, productId, product);
  if (result.staged) await scheduleFlushAfterStage(ctx, shop, result.waitingSince);
};

// products/delete: never deleted upstream (its reviews would be orphaned); sent as inactive, with
// the rest of the last accepted payload so the mirror stays whole for the order sync.
export const productDeleted: TopicHandler = async (delivery, ctx) => {
  const shop = await syncShop(ctx, delivery.shop);
  if (!shop) return;
  const parsed = webhookProductDeleteSchema.safeParse(delivery.payload);
  if (!parsed.success) throw new PermanentJobError("products/delete payload without id");
  const productId = productKey(parsed.data.id);
  const row = await ctx.mirror.get(shop.id, productId);
  // Never accepted upstream: nothing there to deactivate (and a new product needs a name).
  if (!row?.payload) return;
  const product = { ...(JSON.parse(row.payload) as { sku: string }), status: "inactive" };
  const result = await stageProduct(ctx, shop.id, productId, product);
  if (result.staged) await scheduleFlushAfterStage(ctx, shop, result.waitingSince);
};
