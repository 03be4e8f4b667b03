// What both blocks share, free of the `shopify` global and of Preact so it is unit-tested alone:
// the call to the app's backend with a fresh session token, and what to show from its answer.
// The answers' shapes are the backend's own types (erased from the bundle).

import type { StatusItem, StatusOrder } from "../../../app/.server/storefront";
export type { StatusItem, StatusOrder };
export type { ThankYouAnswer } from "../../../app/.server/storefront";

export type Loaded<T> = { kind: "loaded"; data: T } | { kind: "failed"; retry: boolean } | { kind: "unavailable" };

export interface BackendCall {
  /** The app's origin (the CLI's APP_URL); blank when the build had none. */
  appUrl: string | undefined;
  path: "/extensions/order-status" | "/extensions/thank-you";
  /** The order's GID as the page gives it. */
  order: string;
  getToken: () => Promise<string>;
  fetch: typeof fetch;
}

/** One call to the backend; never throws: the block shows nothing rather than an error page. */
export async function loadFromBackend<T>(call: BackendCall): Promise<Loaded<T>> {
  if (!call.appUrl || !call.order) return { kind: "unavailable" };
  try {
    const token = await call.getToken();
    const url = `${call.appUrl.replace(/\/$/, "")}${call.path}?order=${encodeURIComponent(call.order)}`;
    const res = await call.fetch(url, { headers: { Authorization: `Bearer ${token}`, Accept: "application/json" } });
    if (res.ok) return { kind: "loaded", data: (await res.json()) as T };
    // A refusal (no customer, not theirs) does not pass with time; the service being down may.
    return { kind: "failed", retry: res.status === 429 || res.status >= 500 };
  } catch {
    return { kind: "failed", retry: true };
  }
}

/** "★★★★☆" for 4: how a rating reads in a plain text component. */
export function starsText(rating: number): string {
  const n = Math.max(0, Math.min(5, Math.round(rating)));
  return "★".repeat(n) + "☆".repeat(5 - n);
}

/** The order's products in the order the block lists them: still to rate, to rate once it arrives, then rated. */
export function itemsForBlock(order: StatusOrder): {
  toRate: StatusItem[];
  waiting: StatusItem[];
  rated: StatusItem[];
} {
  return {
    toRate: order.items.filter((i) => i.state === "rate" && i.rate),
    waiting: order.items.filter((i) => i.state === "waiting"),
    rated: order.items.filter((i) => i.state === "reviewed"),
  };
}

/** The app's address compiled in by the Shopify CLI (`process.env.APP_URL`), if any. */
export function compiledAppUrl(read: () => string | undefined): string | undefined {
  try {
    return read() || undefined;
  } catch {
    // Built without it: `process` does not exist where extensions run.
    return undefined;
  }
}
