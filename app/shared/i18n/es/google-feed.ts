import type { googleFeed as en } from "../en/google-feed";

// Spanish words of the Google product ratings feed: why a review is left out of it.

export const googleFeed: Record<keyof typeof en, string> = {
  "googleFeed.reason.not_published": "No publicada",
  "googleFeed.reason.empty_content": "La reseña no tiene texto (Google lo exige)",
  "googleFeed.reason.product_not_in_catalog": "El producto ya no está en el catálogo sincronizado",
  "googleFeed.reason.product_inactive": "El producto está en borrador, archivado o eliminado en Shopify",
  "googleFeed.reason.no_product_identifier": "Sin GTIN (código de barras), ni MPN o SKU junto con un proveedor",
  "googleFeed.reason.no_product_url": "Sin página del producto en el dominio principal de la tienda",
  "googleFeed.reason.invalid_rating": "La calificación no es un número entero del 1 al 5",
  "googleFeed.reason.invalid_timestamp": "La reseña no tiene una fecha válida",
  "googleFeed.reason.no_review_id": "La reseña no tiene identificador",
};
