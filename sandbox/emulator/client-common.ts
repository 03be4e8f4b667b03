// Helpers shared by the Client API modules: who the shopper is, and the forbidden-word filter.
import { abbreviateName } from "./orders.rules";
import type { CustomerState } from "./store";
import type { StoredOrder } from "./types";

const sameEmail = (a: string | undefined, b: string | undefined) =>
  a !== undefined && b !== undefined && a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * `orders/find` rule: `email` is tried first, then `userId`. Emails compare case-insensitively
 * (mailboxes are, in practice); user ids compare exactly.
 */
export function orderOfUser(
  order: StoredOrder | undefined,
  who: { email?: string; userId?: string },
): StoredOrder | undefined {
  if (!order) return undefined;
  if (who.email && sameEmail(order.email, who.email)) return order;
  if (who.userId && order.userId !== undefined && order.userId === who.userId) return order;
  return undefined;
}

/**
 * Display name of a shopper identified by userId + email (the review body has no name field): an
 * explicit `name` if the caller sent one, else the abbreviated name of their latest order, else
 * "Customer". Full names are never shown on the storefront.
 */
export function displayName(cs: CustomerState, who: { userId?: string; email?: string; name?: string }): string {
  if (who.name && who.name.trim()) return who.name.trim();
  let latest: StoredOrder | undefined;
  for (const o of cs.orders.values()) {
    if (!o.name) continue;
    const mine = (who.email && sameEmail(o.email, who.email)) || (who.userId && o.userId === who.userId);
    if (mine && (!latest || (o.createdDate ?? "") > (latest.createdDate ?? ""))) latest = o;
  }
  return abbreviateName(latest?.name) || "Customer";
}

export function containsForbiddenWord(cs: CustomerState, text: string): boolean {
  const lower = text.toLowerCase();
  return cs.settings.forbiddenWords.some((w) => w && lower.includes(w.toLowerCase()));
}
