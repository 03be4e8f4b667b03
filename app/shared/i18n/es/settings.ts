import type { settings as en } from "../en/settings";

// Spanish words of the settings page.

export const settings: Record<keyof typeof en, string> = {
  "settings.title": "Configuración",
  "settings.saved": "Configuración guardada.",
  "settings.notSaved": "No se guardó: corrige los campos marcados abajo.",
  "settings.unchanged": "No hay nada que cambiar.",
  "settings.section.catalog": "Catálogo",
  "settings.section.orders": "Pedidos",
  "settings.section.storefront": "Tienda online",
  "settings.section.flow": "Shopify Flow",
  "settings.section.googleFeed": "Google Shopping",
  "settings.googleFeed.moved":
    "La dirección para pegar en Google Merchant Center, y lo que contiene el feed, están en la página Google Shopping y app Shop.",
  "settings.googleFeed.open": "Abrir Google Shopping y app Shop",
  "settings.section.filters": "Filtrar por valoración",
  "settings.filters.body":
    'Cada producto con reseñas publicadas lleva su valoración media como número, "Rating (for filters)", para que los clientes acoten colecciones y resultados de búsqueda a productos bien valorados.',
  "settings.filters.step1": "En la app Search & Discovery de Shopify, abre Filtros y elige Agregar filtro.",
  "settings.filters.step2": 'Elige "Rating (for filters)" entre los metacampos de producto y guarda.',
  "settings.filters.step3":
    'Para una colección como "Valoración 4 o más", agrega a una colección automatizada la condición "Rating (for filters)" es mayor que 3,9.',
  "settings.default": "Predeterminado: {value}",
  "settings.variantKeyWarning.title": "Cambiar la clave de variante deja reseñas huérfanas",
  "settings.variantKeyWarning.body":
    "El servicio de reseñas guarda {count} reseñas de la cuenta {customer}. Se recogieron con {from}; tras el cambio la app envía {to}, así que esas reseñas dejan de coincidir con tus variantes y artículos de pedido.",
  "settings.variantKeyWarning.confirm": "Lo entiendo: cambiarla de todos modos",
  "settings.variantKeyWarning.unknown":
    "No se pudo preguntar al servicio cuántas reseñas guarda ({reason}). Confirma para cambiar la clave de variante sin comprobarlo.",
  "settings.variantKeyWarning.none":
    "El servicio de reseñas no guarda reseñas de esta cuenta: cambiar la clave de variante no deja nada huérfano.",
  "settings.variantKeyResync":
    "Se inició una sincronización completa del catálogo para que el servicio reciba las nuevas claves de variante.",
  "settings.keys.id": "ids de variante",
  "settings.keys.sku": "SKU de variante",
  "settings.invalid.enum": "Elige una de las opciones.",
  "settings.invalid.text": "Obligatorio.",
  "settings.invalid.pattern": "Usa el formato namespace.clave.",
  "settings.invalid.number": "Introduce un número entero.",
  "settings.invalid.range": "Introduce un número de {min} a {max}.",
  "settings.invalid.list": "Separa los valores con comas.",
  "settings.invalid.onlyWhen": "Solo se usa cuando {when}.",
  "settings.listHelp": "Separados por comas; vacío para ninguno.",
  "settings.nullableHelp": "Vacío para desactivado.",

  "setting.catalog.variantKey": "Clave de variante",
  "setting.catalog.variantKey.help": "Lo que la app envía como clave de cada variante al servicio de reseñas.",
  "setting.catalog.variantKey.id": "Id de variante (estable)",
  "setting.catalog.variantKey.sku": "SKU de variante",
  "setting.catalog.defaultCategory": "Categoría predeterminada",
  "setting.catalog.defaultCategory.help": "Se usa para un producto sin tipo, categoría de la taxonomía ni colección.",
  "setting.catalog.specificationMetafields": "Metacampos de especificación",
  "setting.catalog.specificationMetafields.help":
    "Metacampos de producto enviados como especificaciones, como namespace.clave, separados por comas.",
  "setting.orders.orderIdSource": "Cómo se identifican los pedidos en el servicio de reseñas",
  "setting.orders.orderIdSource.help":
    "El nombre del pedido (#1001) es lo que el comprador ve y escribe al reseñar como invitado. El ID del pedido en Shopify es un número largo que el comprador nunca ve, y no cambia si cambian los nombres de los pedidos.",
  "setting.orders.orderIdSource.id": "ID del pedido en Shopify (el comprador nunca lo ve)",
  "setting.orders.orderIdSource.name": "Nombre del pedido que ve el comprador, como #1001",
  "setting.orders.seller.mode": "Vendedor",
  "setting.orders.seller.mode.help": "Para marketplaces: quién vendió cada artículo.",
  "setting.orders.seller.mode.none": "Sin vendedor",
  "setting.orders.seller.mode.vendor": "El proveedor del producto",
  "setting.orders.seller.mode.property": "Una propiedad del artículo",
  "setting.orders.seller.property": "Nombre de la propiedad del vendedor",
  "setting.orders.seller.property.help": "La propiedad del artículo del pedido que nombra al vendedor.",
  "setting.orders.deliveredAfterDays": "Marcar como entregado tras (días)",
  "setting.orders.deliveredAfterDays.help":
    "Para tiendas que nunca reciben el evento de entrega: días tras el envío. Vacío para desactivado.",
  "setting.storefront.guestReviews": "Reseñas de visitantes sin pedido",
  "setting.storefront.guestReviews.help":
    "Los compradores sin sesión y sin número de pedido pueden escribir una reseña con su e-mail. Desactivado por defecto: no son compras verificadas.",
  "setting.storefront.guestQuestions": "Preguntas de visitantes",
  "setting.storefront.guestQuestions.help":
    "Los compradores sin sesión pueden hacer una pregunta con su nombre y e-mail. Desactivado por defecto: solo los clientes con sesión y quienes indican su pedido pueden preguntar.",
  "setting.storefront.photosPerReview": "Fotos por reseña",
  "setting.storefront.photosPerReview.help":
    "Cuántas fotos puede añadir el comprador a una reseña (0 a 10; 0 desactiva las fotos).",
  "setting.storefront.photoMaxMb": "Tamaño máximo de foto (MB)",
  "setting.storefront.photoMaxMb.help": "JPEG, PNG, WebP o HEIC hasta este tamaño (1 a 20 MB).",
  "setting.storefront.videoMaxMb": "Tamaño máximo de vídeo (MB)",
  "setting.storefront.videoMaxMb.help": "Un vídeo MP4, MOV o WebM por reseña hasta este tamaño (0 desactiva el vídeo).",
  "setting.googleFeed.incentivizedReviews": "Ofrezco incentivos por reseñas",
  "setting.googleFeed.incentivizedReviews.help":
    "Actívalo si los compradores reciben algo por escribir una reseña: un descuento, puntos de fidelidad, un regalo, un producto gratis o una participación en un sorteo. Google exige que esas reseñas estén marcadas y el servicio de reseñas no indica cuáles lo fueron, así que todas las reseñas del feed de Google se marcan entonces como incentivadas. Desactivado: el feed no dice nada sobre incentivos.",
  "setting.flow.negativeRatingAtOrBelow": "Reseña negativa: calificación igual o menor que",
  "setting.flow.negativeRatingAtOrBelow.help":
    'El disparador "Reseña negativa recibida" de Shopify Flow se activa para reseñas con esta calificación o menos (1 a 4).',
  "setting.orders.optOut.email": "Solicitudes de reseña por correo",
  "setting.orders.optOut.sms": "Solicitudes de reseña por SMS",
  "setting.orders.optOut.whatsapp": "Solicitudes de reseña por WhatsApp",
  "setting.orders.optOut.help": "A quién puede contactar el servicio de reseñas por este canal.",
  "setting.optOut.consent": "Solo compradores que aceptaron marketing",
  "setting.optOut.unsubscribed": "Todos los compradores que no se dieron de baja",
  "setting.optOut.never": "Todos los compradores (la solicitud trata de una compra)",
  "setting.optOut.always": "Nadie",
  "setting.orders.exclude.testOrders": "Excluir pedidos de prueba",
  "setting.orders.exclude.giftCardOnly": "Excluir pedidos solo de tarjetas regalo",
  "setting.orders.exclude.sourceNames": "Excluir pedidos de estos canales de venta",
  "setting.orders.exclude.sourceNames.help": "Nombres de origen como pos o shopify_draft_order, separados por comas.",
  "setting.orders.backfillDays": "Pedidos enviados al conectar (días atrás)",
  "setting.orders.backfillDays.help": "Shopify da los últimos 60 días sin permiso adicional.",
};
