import type { sync as en } from "../en/sync";

// Spanish words of the sync page.

export const sync: Record<keyof typeof en, string> = {
  "sync.title": "Sincronización",
  "sync.now": "Sincronizar todo ahora",
  "sync.started": "Sincronización iniciada.",
  "sync.catalog": "Catálogo",
  "sync.orders": "Pedidos",
  "sync.status.pending": "Esperando para empezar",
  "sync.status.running": "En curso",
  "sync.status.reading": "Leyendo de Shopify",
  "sync.status.completed": "Completada",
  "sync.status.failed": "Falló",
  "sync.status.cancelled": "Cancelada",
  "sync.status.never": "Nunca ejecutada",
  "sync.progress": "{done} de {total}",
  "sync.progressUnknown": "{done} hasta ahora (Shopify está contando)",
  "sync.counts":
    "Leídos {read} · enviados {sent} · creados {created} · actualizados {updated} · sin cambios {unchanged} · fallidos {failed}",
  "sync.mirror": "Productos: {synced} en el servicio, {failed} rechazados, {pending} en espera",
  "sync.ordersKnown": "Pedidos en el servicio: {sent}; rechazados: {failed}",
  "sync.recentRuns": "Ejecuciones recientes",
  "sync.col.kind": "Tipo",
  "sync.col.status": "Estado",
  "sync.col.started": "Inicio",
  "sync.col.finished": "Fin",
  "sync.col.counts": "Leídos / enviados / fallidos",
  "sync.noRuns": "Aún no hay sincronizaciones",
  "sync.noRuns.body": "Conecta tu cuenta en la página de inicio y la primera sincronización empieza sola.",
  "sync.refused": "Rechazados por el servicio de reseñas",
  "sync.refusedProducts": "Productos",
  "sync.refusedOrders": "Pedidos",
  "sync.col.product": "Producto",
  "sync.col.order": "Pedido",
  "sync.col.reason": "Motivo",
  "sync.col.when": "Cuándo",
  "sync.retry": "Reintentar",
  "sync.retryAll": "Reenviar productos rechazados",
  "sync.retried": "Enviado de nuevo.",
  "sync.noRefused": "Nada rechazado",
  "sync.noRefused.body": "Todos los productos y pedidos que envió la app fueron aceptados.",
  "sync.health": "Trabajo en segundo plano",
  "sync.queueDepth": "Tareas en cola: {count}",
  "sync.queueIdle": "Ninguna tarea en espera: el worker está inactivo.",
  "sync.queueScheduled": "{count} programadas para más tarde (las consultas periódicas y los reintentos).",
  "sync.queueScheduled.one": "1 programada para más tarde (las consultas periódicas y los reintentos).",
  "sync.workerAlive": "Hay un worker en marcha (visto hace {seconds} s).",
  "sync.workerDown":
    "No hay ningún worker en marcha: las sincronizaciones esperan a que arranque uno. Avisa a quien opera esta app.",
  "sync.error": "Error: {error}",
  "sync.addressRefused":
    "Shopify rechazó la dirección de este servidor: agrégala a la lista de IP permitidas de la app.",
  "sync.addressRefused.paused":
    "La sincronización con Shopify está en pausa desde {since}; se reanuda sola cuando Shopify acepte la dirección (próxima comprobación {next}).",
  "sync.addressRefused.detail": "Shopify respondió: {detail}",
  "sync.readPath.bulk": "Leído con una operación masiva.",
  "sync.readPath.paged":
    "Leído página por página: Shopify rechazó las operaciones masivas ({reason}). Activa las consultas masivas en el Partner Dashboard para volver a usarlas.",
  "sync.status.live": "Enviando los cambios a medida que llegan",
  "sync.status.resent": "Enviando todo de nuevo",
  "sync.resend":
    "Detenida: el servicio de reseñas ya no tenía lo que la app había enviado (otra cuenta, o sus datos se borraron). Todo se envía de nuevo.",
  "sync.noRuns.live":
    "No se ha ejecutado ninguna sincronización completa: {count} llegaron al servicio de reseñas a medida que cambiaban en Shopify.",
  "sync.noRuns.connected":
    "Aún no se ha ejecutado ninguna sincronización completa: “Sincronizar todo ahora” lo envía todo.",
  "sync.forgotten.title": "Enviados de nuevo",
  "sync.forgotten.unknown":
    "Enviados de nuevo porque el servicio de reseñas ya no los conocía: productos {products}, pedidos {orders} (último el {at}).",
  "sync.forgotten.account":
    "Conectada a otra cuenta del servicio de reseñas el {at}: lo enviado antes (productos {products}, pedidos {orders}) se le envía de nuevo.",
  "sync.forgotten.denied":
    "Siguen siendo desconocidos para el servicio de reseñas tras enviarlos de nuevo: {denied}. Cada uno se reenvía como máximo una vez cada {hours} h; revise la cuenta en el servicio de reseñas.",
};
