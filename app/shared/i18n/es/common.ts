import type { common as en } from "../en/common";

// Spanish words of app, navigation, shared controls and errors.

export const common: Record<keyof typeof en, string> = {
  "app.name": "Reseñas",
  "nav.home": "Inicio",
  "nav.sync": "Sincronización",
  "nav.settings": "Configuración",
  "nav.reviews": "Reseñas",
  "nav.questions": "Preguntas",
  "nav.surveys": "Encuestas",
  "nav.report": "Informe de productos",
  "nav.groups": "Grupos de productos",

  "common.retry": "Reintentar",
  "common.save": "Guardar",
  "common.discard": "Descartar",
  "common.cancel": "Cancelar",
  "common.delete": "Eliminar",
  "common.edit": "Editar",
  "common.loading": "Cargando…",
  "common.yes": "Sí",
  "common.no": "No",
  "common.any": "Cualquiera",
  "common.none": "Ninguno",
  "common.previous": "Anterior",
  "common.next": "Siguiente",
  "common.pageOf": "Página {page} de {pages}",
  "common.total": "{count} en total",
  "charts.showTable": "Mostrar como tabla",
  "charts.hideTable": "Ocultar tabla",
  "charts.month": "Mes",
  "common.error.title": "Algo salió mal",
  "common.error.body": "No se pudo cargar la página. Revisa tu conexión y vuelve a intentarlo.",
  "common.notConnected": "Primero conecta tu cuenta de reseñas: el servicio guarda estos datos.",
  "common.connectLink": "Ir al formulario de conexión",
  "app.tokenNeedsMerchant":
    "Shopify dejó de aceptar el acceso de esta app a tu tienda, así que las reseñas, los pedidos y las valoraciones están en pausa (no se pierde nada: esperan y se envían cuando vuelva el acceso). Cierra la app y vuelve a abrirla desde el admin de Shopify para restablecerlo.",

  "error.auth":
    "El servicio de reseñas rechazó estas credenciales. Revisa la clave de cliente, el client id y el client secret en el panel del servicio (Configuración › Integraciones › API).",
  "error.unreachable":
    "El servicio de reseñas no respondió. Puede estar caído o la dirección puede ser incorrecta; vuelve a intentarlo en un momento.",
  "error.rateLimited": "El servicio de reseñas pidió ir más despacio. Vuelve a intentarlo en {seconds} segundos.",
  "error.refused": "El servicio de reseñas rechazó la solicitud: {detail}",
  "error.response":
    "El servicio de reseñas respondió de una forma que esta app no entiende. Inténtalo más tarde; si continúa, contacta con soporte.",
  "error.notFound": "El servicio de reseñas ya no conoce este elemento.",
  "error.unknown": "Ocurrió algo inesperado. Vuelve a intentarlo.",
};
