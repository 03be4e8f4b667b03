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
  let input = fromWebhookProduct(parsed.data);
  const metafieldKeys = shop.settings.catalog.specificationMetafields;
  if (metafieldKeys.length) {
    // Webhook payloads carry no metafields: read the product so its specifications stay whole.
    const node = await fetchProduct(await ctx.adminFor(shop.domain), productGid(parsed.data.id), { metafieldKeys });
    if (node) input = fromGraphqlProduct(node);
  }
  const result = await stageProduct(ctx, shop.id, productKey(parsed.data.id), mapProduct(input, mapCtx));
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
