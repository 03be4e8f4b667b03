import { isAddressRefused, fetchProduct } from "../shopify";
import {
  categoriesWithSource,
  fromGraphqlProduct,
  fromWebhookProduct,
  mapProduct,
  sourceUpdatedAtOf,
  webhookProductDeleteSchema,
  webhookProductSchema,
  type CategorySource,
  productGid,
  productKey,
  deliverySource,
  versionOf,
  type ChangeSource,
} from "../mapping";
import { stageProduct } from "./stage";
import { type JobServices, GiveUp, type TopicDelivery } from "../jobs";
import { syncShop, type SyncShopDeps } from "../shops";
import { scheduleFlushAfterStage } from "./flush";

export type ProductWebhookDeps = SyncShopDeps & Pick<JobServices, "config" | "queues" | "pending" | "mirror" | "log">;

// products/create and products/update: map, skip when the service already has this payload,
// otherwise stage it for the shop's next batch.
export async function productUpserted(ctx: ProductWebhookDeps, delivery: TopicDelivery): Promise<void> {
  const shop = await syncShop(ctx, delivery.shop);
  if (!shop) return;
  const parsed = webhookProductSchema.safeParse(delivery.payload);
  if (!parsed.success)
    throw new GiveUp(
      `product payload unusable: ${parsed.error.issues[0]?.path.join(".")} ${parsed.error.issues[0]?.message}`,
    );
  const mapCtx = { primaryDomain: shop.primaryDomain, settings: shop.settings.catalog };
  const productId = productKey(parsed.data.id);
  let input = fromWebhookProduct(parsed.data);
  const metafieldKeys = shop.settings.catalog.specificationMetafields;
  // Webhook payloads carry neither metafields nor collections. When the product needs them (chosen
  // metafield specifications; categories that can only come from collections), read it whole, so
  // the live path sends what the full sync sends instead of flipping between the two. Categories
  // from collections are read once: a collection change does not fire products/update, so the
  // categories the service holds stay right, and a storm of updates costs no Shopify reads (a
  // product read costs ~265 of the shop's cost points, which refill at 100 a second). Categories
  // that came from a product type or taxonomy category the merchant has since removed are not kept.
  const needsCollections = !input.productType?.trim() && !input.category?.name && !input.category?.fullName;
  const known = needsCollections && !metafieldKeys.length ? await knownCategories(ctx, shop.id, productId) : undefined;
  // The delivery orders this change, or the read of the current product that replaced its payload.
  let source: ChangeSource = deliverySource(delivery);
  if (metafieldKeys.length || (needsCollections && !known)) {
    const readAt = new Date();
    const node = await ctx
      .adminFor(shop.domain)
      .then((gql) => fetchProduct(gql, productGid(parsed.data.id), { metafieldKeys }))
      .catch((error: Error) => {
        // Specifications would be wiped: let the queue retry; a refused address parks the delivery.
        if (metafieldKeys.length || isAddressRefused(error)) throw error;
        ctx.log.debug(
          { shop: shop.domain, productId, err: error.message },
          "product not re-read; categories from the default",
        );
        return null;
      });
    if (node) {
      input = fromGraphqlProduct(node);
      source = { readAt };
    }
  }
  let product = mapProduct(input, mapCtx);
  let categoriesFrom = categoriesWithSource(input, mapCtx.settings.defaultCategory).from;
  if (known && input.collections === null) {
    product = { ...product, categories: known.categories };
    categoriesFrom = known.from;
  }
  // The version of what was mapped: the payload's, or the re-read product's (the current one).
  const version = {
    sourceUpdatedAt: sourceUpdatedAtOf(input),
    version: versionOf(input.updatedAt, source),
    categoriesFrom,
  };
  const result = await stageProduct(ctx, shop.id, productId, product, version);
  if (result.staged) await scheduleFlushAfterStage(ctx, shop, result.waitingSince);
}

/**
 * The categories the service holds for this product, when they came from its collections (or the
 * default, for want of any): those a webhook cannot recompute. Rows from before the source was
 * recorded count as such, so an upgrade does not re-read every such product at once.
 */
async function knownCategories(
  ctx: Pick<JobServices, "mirror">,
  shopId: string,
  productId: string,
): Promise<{ categories: string[]; from: CategorySource } | undefined> {
  const row = await ctx.mirror.get(shopId, productId);
  if (!row?.payload || row.categoriesFrom === "type" || row.categoriesFrom === "taxonomy") return undefined;
  const categories = (JSON.parse(row.payload) as { categories?: string[] }).categories;
  return categories?.length
    ? { categories, from: (row.categoriesFrom as CategorySource | null) ?? "collections" }
    : undefined;
}

// products/delete: never deleted upstream (its reviews would be orphaned); sent as inactive, with
// the rest of the last accepted payload so the mirror stays whole for the order sync.
export async function productDeleted(ctx: ProductWebhookDeps, delivery: TopicDelivery): Promise<void> {
  const shop = await syncShop(ctx, delivery.shop);
  if (!shop) return;
  const parsed = webhookProductDeleteSchema.safeParse(delivery.payload);
  if (!parsed.success) throw new GiveUp("products/delete payload without id");
  const productId = productKey(parsed.data.id);
  // The newest payload we know: one still waiting to be sent (created or changed while the service
  // was unreachable; it would otherwise go out active after the delete), else the last accepted one.
  const waiting = await ctx.pending.staged(shop.id, productId);
  const row = waiting ? null : await ctx.mirror.get(shop.id, productId);
  const last = waiting?.product ?? (row?.payload ? (JSON.parse(row.payload) as { sku: string }) : undefined);
  // Never accepted upstream nor waiting to be: nothing there to deactivate (a new product needs a name).
  if (!last) return;
  const product = { ...last, status: "inactive" };
  // The deletion is the product's last version: an update delivered after it is older.
  const categoriesFrom = waiting?.categoriesFrom ?? ((row?.categoriesFrom ?? undefined) as CategorySource | undefined);
  const now = new Date();
  const result = await stageProduct(ctx, shop.id, productId, product, {
    sourceUpdatedAt: now.getTime(),
    version: versionOf(now.toISOString(), deliverySource(delivery)),
    categoriesFrom,
  });
  if (result.staged) await scheduleFlushAfterStage(ctx, shop, result.waitingSince);
}
