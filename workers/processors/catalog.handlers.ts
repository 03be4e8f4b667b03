import { topicAdapter } from "../outcome-adapter";
import { productDeleted as deleteProduct, productUpserted as upsertProduct } from "../../app/.server/catalog";

// products/create, products/update and products/delete: staged for the shop's next catalog flush
// (app/.server/catalog/product-webhooks.ts). An unusable payload is recorded failed, not retried.
export const productUpserted = topicAdapter(upsertProduct);
export const productDeleted = topicAdapter(deleteProduct);
