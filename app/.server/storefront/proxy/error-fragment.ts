import type { StorefrontLocale } from "./reviews-query";

// What a shopper sees when the proxy cannot answer: a short message in the storefront's language
// and a retry button, swapped in where the reviews would have gone, never a broken page. The
// theme's `reviews-error` snippet is answered normally; this copy of its markup (same data
// attributes: the block script swaps `[data-rv-page]` in and retries from `[data-rv-retry]`) is the
// fallback for when the renderer or the theme files are what failed.

export type ProxyFailure = "unavailable" | "busy";

const MESSAGES: Record<StorefrontLocale, Record<ProxyFailure | "retry", string>> = {
  en: {
    unavailable: "Reviews could not be loaded right now.",
    busy: "Too many requests just now. Please wait a moment.",
    retry: "Try again",
  },
  "pt-BR": {
    unavailable: "Não foi possível carregar as avaliações agora.",
    busy: "Muitas solicitações agora. Aguarde um momento.",
    retry: "Tentar novamente",
  },
  es: {
    unavailable: "No se pudieron cargar las reseñas en este momento.",
    busy: "Demasiadas solicitudes ahora. Espera un momento.",
    retry: "Reintentar",
  },
};

export function proxyMessage(locale: StorefrontLocale, key: ProxyFailure | "retry"): string {
  return MESSAGES[locale][key];
}

export function errorFragment(locale: StorefrontLocale, failure: ProxyFailure): string {
  const m = MESSAGES[locale];
  return (
    `<div class="rv-page rv-page--error" data-rv-page data-rv-error="${failure}" role="alert">` +
    `<p class="rv-empty">${m[failure]}</p>` +
    `<button type="button" class="rv-button" data-rv-retry>${m.retry}</button>` +
    `</div>`
  );
}
