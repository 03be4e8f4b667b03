import type { Logger } from "pino";
import { ReviewsError } from "../../reviews";
import { ShopNotConnectedError, ShopNotFoundError } from "../../shops";
import { cacheControl, NO_STORE } from "./cache-control";
import { errorFragment, type ProxyFailure } from "./error-fragment";
import type { StorefrontLocale } from "./reviews-query";

// The app proxy's HTML answers to the blocks' scripts: a page fragment (the same for every shopper:
// cacheable by Shopify's edge for the proxy cache's time), or the theme's translated error with a
// retry, never cached.

const HTML = "text/html; charset=utf-8";

export function fragmentPage(html: string, hit: boolean, cacheMs: number): Response {
  return new Response(html, {
    status: 200,
    headers: {
      "Content-Type": HTML,
      "Cache-Control": cacheControl({ dependsOnCustomer: false, maxAgeMs: cacheMs }),
      "X-Reviews-Cache": hit ? "hit" : "miss",
    },
  });
}

export async function fragmentFailure(
  deps: { renderError(locale: StorefrontLocale): Promise<string>; log: Logger },
  locale: StorefrontLocale,
  kind: ProxyFailure,
  status: number,
  retryAfterSeconds?: number,
): Promise<Response> {
  const headers: Record<string, string> = { "Content-Type": HTML, "Cache-Control": NO_STORE };
  if (retryAfterSeconds !== undefined) headers["Retry-After"] = String(retryAfterSeconds);
  // The theme's own words first; ours when the theme files or the renderer are what failed.
  const body = await deps.renderError(locale).catch((e: Error) => {
    deps.log.error({ err: e.message }, "app proxy: reviews-error snippet not rendered");
    return errorFragment(locale, kind);
  });
  return new Response(body, { status, headers });
}

export function badRequest(message: string): Response {
  return new Response(`Bad request: ${message}`, {
    status: 400,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": NO_STORE },
  });
}

/** 503 for what may pass (the service down, slow or limiting us; the shop not connected), 502 for a wrong answer. */
export function failureStatus(error: unknown): { status: 502 | 503; retryAfterSeconds?: number } {
  if (error instanceof ShopNotConnectedError || error instanceof ShopNotFoundError) return { status: 503 };
  if (error instanceof ReviewsError) {
    if (error.kind === "rate_limited") {
      const ms = (error as ReviewsError & { retryAfterMs: number }).retryAfterMs;
      return { status: 503, retryAfterSeconds: Math.max(1, Math.ceil(ms / 1000)) };
    }
    if (error.kind === "retryable") return { status: 503 };
  }
  return { status: 502 };
}
