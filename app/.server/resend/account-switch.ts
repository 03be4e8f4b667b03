import type { Forgotten } from "./forget-sent";
import { observeResend } from "../metrics";
import type { ResendLedger } from "./resend-ledger";

/**
 * After a connection to another account forgot what was sent (resend/forget-sent.ts): the Sync page
 * says everything goes again, and the per-item resend windows start over for the new account.
 */
export async function reportAccountSwitch(ledger: ResendLedger, shopId: string, forgotten: Forgotten): Promise<void> {
  await ledger.recordAccountSwitch(shopId, { products: forgotten.products, orders: forgotten.orders });
  observeResend("account", "resent");
}
