// The block's logic, free of the `shopify` global and of Preact so it is unit-tested alone: the call
// to the app's backend and what each row shows. The answer's shapes are the backend's own types
// (erased from the bundle).

import type { CustomerReviewItem, CustomerReviewsAnswer } from "../../../app/.server/customers";
import { type CustomerReviewsError } from "../../../app/.server/web";
export type { CustomerReviewItem, CustomerReviewsAnswer, CustomerReviewsError };

/** Relative: the admin resolves it against the app's URL and adds the ID token itself. */
export const BACKEND_PATH = "/extensions/customer-reviews";

export type Loaded =
  | { kind: "loaded"; data: CustomerReviewsAnswer }
  | { kind: "failed"; error: CustomerReviewsError }
  | { kind: "unavailable" };

const ERRORS: readonly CustomerReviewsError[] = ["not_connected", "try_later", "failed"];

/** One page of the customer's reviews; never throws: the block shows a sentence, not an error page. */
export async function loadCustomerReviews(call: {
  /** The customer's GID as the page gives it. */
  customer: string;
  page: number;
  fetch: (url: string, init: RequestInit) => Promise<Response>;
}): Promise<Loaded> {
  if (!call.customer) return { kind: "unavailable" };
  try {
    const query = `customer=${encodeURIComponent(call.customer)}&page=${call.page}`;
    const res = await call.fetch(`${BACKEND_PATH}?${query}`, { headers: { Accept: "application/json" } });
    if (res.ok) return { kind: "loaded", data: (await res.json()) as CustomerReviewsAnswer };
    const said = ((await res.json().catch(() => null)) as { error?: unknown } | null)?.error;
    if (ERRORS.includes(said as CustomerReviewsError)) return { kind: "failed", error: said as CustomerReviewsError };
    return { kind: "failed", error: res.status === 429 || res.status >= 500 ? "try_later" : "failed" };
  } catch {
    return { kind: "failed", error: "try_later" };
  }
}

export type BadgeTone = "success" | "info" | "critical" | "warning" | "neutral";

export interface BlockRow {
  key: string;
  /** The product's name, or null: the block then names it by id. */
  title: string | null;
  productId: string;
  /** A key of the locale files. */
  statusKey: "status.published" | "status.pending" | "status.removed" | "status.filtered" | "status.unknown";
  tone: BadgeTone;
  rating: number;
  stars: string;
  submittedAt: Date | null;
}

const STATUS: Record<string, { key: BlockRow["statusKey"]; tone: BadgeTone }> = {
  published: { key: "status.published", tone: "success" },
  pending: { key: "status.pending", tone: "info" },
  removed: { key: "status.removed", tone: "critical" },
  filtered: { key: "status.filtered", tone: "warning" },
};

/** "★★★★☆" for 4: how a rating reads at a glance (the label beside it says it in words). */
export function starsText(rating: number): string {
  const n = Math.max(0, Math.min(5, Math.round(rating)));
  return "★".repeat(n) + "☆".repeat(5 - n);
}

export function rowsForBlock(answer: CustomerReviewsAnswer): BlockRow[] {
  return answer.reviews.map((r: CustomerReviewItem) => {
    const status = STATUS[r.status] ?? { key: "status.unknown" as const, tone: "neutral" as const };
    const at = Date.parse(r.submittedAt);
    return {
      key: r.id,
      title: r.product.title,
      productId: r.product.id,
      statusKey: status.key,
      tone: status.tone,
      rating: r.rating,
      stars: starsText(r.rating),
      submittedAt: Number.isNaN(at) ? null : new Date(at),
    };
  });
}

/** Which page buttons the block shows. */
export function pagesFor(answer: Pick<CustomerReviewsAnswer, "page" | "hasNext">): {
  previous: number | null;
  next: number | null;
} {
  return { previous: answer.page > 1 ? answer.page - 1 : null, next: answer.hasNext ? answer.page + 1 : null };
}
