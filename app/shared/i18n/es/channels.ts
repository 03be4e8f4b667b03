import type { channels as en } from "../en/channels";

// Spanish words of the "Google Shopping y app Shop" page.

export const channels: Record<keyof typeof en, string> = {
  "nav.channels": "Google Shopping y app Shop",
  "channels.title": "Google Shopping y app Shop",
  "channels.google.title": "Google Shopping",
  "channels.google.body":
    "Google muestra estrellas de valoración en los anuncios de Shopping y en las fichas gratuitas a partir de un feed de reseñas de productos que registras en Merchant Center. Esta dirección sirve tus reseñas publicadas en el formato de Google, en el dominio de tu tienda.",
  "channels.google.url": "Dirección del feed para Merchant Center",
  "channels.google.copy": "Copiar",
  "channels.google.copied": "Dirección del feed copiada",
  "channels.google.copyFailed": "El navegador no permitió copiar: selecciona la dirección y cópiala",
  "channels.google.urlHelp":
    "En Google Merchant Center, añade un feed de reseñas de productos que obtenga esta dirección de forma programada (una vez al día basta).",
  "channels.google.noUrl": "No se pudo formar la dirección del feed a partir del dominio de tu tienda.",
  "channels.google.none":
    "Merchant Center aún no ha obtenido el feed. Tras su primera obtención, esta página muestra lo que contenía.",
  "channels.google.belowMinimum":
    "Google solo acepta un feed de reseñas de tiendas con al menos {minimum} reseñas entre todos sus productos. Tu feed tiene {count}, así que Google aún no muestra sus valoraciones.",
  "channels.google.stale":
    "El feed se obtuvo por última vez el {date}. Google deja de usar un feed que no se actualiza al menos una vez al mes: revisa la programación en Merchant Center.",
  "channels.google.ok": "Tu feed supera el mínimo de {minimum} reseñas que pide Google.",
  "channels.google.included": "Reseñas en el feed",
  "channels.google.minimum": "Mínimo de Google",
  "channels.google.builtAt": "Última generación",
  "channels.google.fetchedAt": "Última obtención",
  "channels.google.never": "Todavía no",
  "channels.google.overSize":
    "{count} reseñas quedaron fuera para que el archivo no supere el límite de tamaño de Google.",
  "channels.leftOut.title": "Productos fuera del feed",
  "channels.leftOut.body":
    "Las reseñas de estos productos no están en el feed, por los motivos indicados. Corrige el producto en Shopify: la próxima obtención incluirá sus reseñas.",
  "channels.leftOut.product": "Producto",
  "channels.leftOut.products": "Productos fuera del feed",
  "channels.leftOut.reasons": "Motivo",
  "channels.leftOut.fix": "Corregir",
  "channels.leftOut.edit": "Editar en Shopify",
  "channels.leftOut.editLabel": "Editar en Shopify: {product}",
  "channels.leftOut.noLink": "Sin vínculo con un producto de Shopify",
  "channels.leftOut.key": "Clave de catálogo {key}",
  "channels.leftOut.empty": "Ningún producto fuera del feed",
  "channels.leftOut.emptyBody": "Todos los productos con reseñas del último feed tenían lo que Google necesita.",
  "channels.leftOut.capped": "La lista muestra los primeros {count} productos fuera del feed.",
};
