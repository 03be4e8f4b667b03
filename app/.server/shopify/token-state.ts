import type { Db } from "../db";
import { observeTokenState } from "../metrics";

// The health of a shop's offline token, on the Shop row (what `cli status` and the admin show):
// "ok"; "refresh-failing" while refreshes fail for a reason that may pass (Shopify down, answers
// lost); "needs-merchant" once Shopify refused the shop's token (a refresh token, a non-expiring
// token after 2027-01-01, an exchange): no process then calls Shopify for the shop at all (the token
// provider asks before every call) until the merchant opens the app.

export type TokenState = "ok" | "refresh-failing" | "needs-merchant";

export interface ShopTokenState {
  state: TokenState;
  reason: string | null;
  at: Date | null;
}

export function shopTokenStates(db: Db) {
  return {
    async get(domain: string): Promise<ShopTokenState | null> {
      const row = await db.shop.findUnique({
        where: { domain },
        select: { tokenState: true, tokenStateReason: true, tokenStateAt: true },
      });
      return row ? { state: row.tokenState as TokenState, reason: row.tokenStateReason, at: row.tokenStateAt } : null;
    },

    /** Sets a state other than "ok"; true when it changed. "refresh-failing" never hides "needs-merchant". */
    async mark(domain: string, state: Exclude<TokenState, "ok">, reason: string): Promise<boolean> {
      const notIn: TokenState[] =
        state === "refresh-failing" ? ["refresh-failing", "needs-merchant"] : ["needs-merchant"];
      const { count } = await db.shop.updateMany({
        where: { domain, tokenState: { notIn } },
        data: { tokenState: state, tokenStateReason: reason, tokenStateAt: new Date() },
      });
      if (count > 0) observeTokenState(state);
      return count > 0;
    },

    /** Back to "ok"; answers the state it left (null when it was ok already or the shop is unknown). */
    async clear(domain: string): Promise<Exclude<TokenState, "ok"> | null> {
      const before = await db.shop.findUnique({ where: { domain }, select: { tokenState: true } });
      if (!before || before.tokenState === "ok") return null;
      const { count } = await db.shop.updateMany({
        where: { domain, tokenState: before.tokenState },
        data: { tokenState: "ok", tokenStateReason: null, tokenStateAt: new Date() },
      });
      if (count === 0) return null;
      observeTokenState("ok");
      return before.tokenState as Exclude<TokenState, "ok">;
    },
  };
}

export type ShopTokenStates = ReturnType<typeof shopTokenStates>;
