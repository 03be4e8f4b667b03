import type { shopApp as en } from "../en/shop-app";

// Spanish words of the Shop app section.

export const shopApp: Record<keyof typeof en, string> = {
  "shopApp.title": "Reseñas en la app Shop",
  "shopApp.intro":
    "Las reseñas publicadas se guardan en el formato estándar de reseñas de productos de Shopify, lo que las hace elegibles para la app Shop. Shopify decide cuáles muestra.",
  "shopApp.program.enabled": "Activo: esta tienda está en el programa de reseñas de productos de Shopify",
  "shopApp.program.notGranted":
    "No disponible: Shopify aún no ha concedido a esta app su programa de reseñas de productos",
  "shopApp.program.unknown": "Aún sin comprobar: la próxima sincronización de reseñas consultará a Shopify",
  "shopApp.checkedAt": "Comprobado con Shopify: {date}",
  "shopApp.notGranted.help":
    "Las reseñas se siguen mostrando en tu tienda y en sus valoraciones con estrellas. La app vuelve a consultar a Shopify cada día.",
  "shopApp.backfill.inProgress":
    "Tus reseñas anteriores todavía se están guardando; las nuevas siguen a medida que se publican.",
  "shopApp.figure.eligible": "Reseñas publicadas",
  "shopApp.figure.syndicated": "En el formato de reseñas de Shopify",
  "shopApp.figure.leftOut": "Excluidas",
  "shopApp.figure.inShopify": "Shopify tiene {count} reseñas.",
  "shopApp.figure.inShopify.one": "Shopify tiene {count} reseña.",
  "shopApp.figure.inShopify.other": "Shopify tiene {count} reseñas.",
  "shopApp.leftOut.title": "Por qué se excluyeron reseñas",
  "shopApp.leftOut.mostNoOrder":
    "{noOrder} de las {count} que quedaron fuera simplemente no están vinculadas a un pedido (escritas en tu tienda sin pedido, o importadas): la app Shop solo muestra reseñas del pedido de un comprador. Siguen apareciendo en tu tienda.",
  "shopApp.leftOut.mostNoOrder.one":
    "La única reseña que quedó fuera simplemente no está vinculada a un pedido (escrita en tu tienda sin pedido, o importada): la app Shop solo muestra reseñas del pedido de un comprador. Sigue apareciendo en tu tienda.",
  "shopApp.leftOut.none": "No se excluyó ninguna reseña publicada.",
  "shopApp.reason.no_order": "Sin pedido asociado (la app Shop necesita el pedido)",
  "shopApp.reason.no_customer": "El pedido no tiene cuenta de cliente (compra como invitado)",
  "shopApp.reason.no_product": "El producto no es un producto de Shopify de esta tienda",
  "shopApp.reason.no_submitted_at": "La reseña no tiene fecha de envío",
  "shopApp.reason.refused": "Shopify la rechazó (el campo está en los registros de la app)",
  "shopApp.reason.count": "{count} reseñas",
  "shopApp.reason.count.one": "{count} reseña",
  "shopApp.reason.count.other": "{count} reseñas",
};
