import type { StorefrontLocale } from "./reviews-query";

// What a shopper sees when the proxy cannot answer: a short message in the storefront's language
// and a retry button, swapped in where the reviews would have gone, never a broken page. Built here
// rather than in Liquid so it still renders when the renderer or the theme files are what failed.
// The block script (extensions/reviews-theme) swaps any HTML answer in and repeats its last request
// when `[data-reviews-retry]` is pressed.

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
    `<div class="reviews-proxy-error" role="alert" data-reviews-error="${failure}">` +
    `<p class="reviews-proxy-error__message">${m[failure]}</p>` +
    `<button type="button" class="reviews-proxy-error__retry" data-reviews-retry>${m.retry}</button>` +
    `</div>`
  );
}
