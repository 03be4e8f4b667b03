import type { Db } from "../db";
import type { Queues } from "../queues";
import { createReviewsClient, DEFAULT_TOKEN_TIMEOUT_MS, type ReviewsAccount } from "../reviews";
import { startSync } from "../sync";
import { requestBackSync } from "../backsync";
import type { ScheduleConfig } from "../activity";
import { forgetWhatWasSent, type Forgotten, reportAccountSwitch, type ResendLedger } from "../resend";

// Connecting a shop to its reviews-service account, as the CLI's `connect` and the admin's
// credentials form both do it: the credentials can be checked with a token request before
// anything is saved, and a new connection starts with the whole catalog and the recent orders
// (the service can only ask about products and orders it knows).

/**
 * One token request with these credentials, bypassing every cache: resolves when the service
 * issues a token, throws the client's typed error (ReviewsAuthError for refused credentials).
 */
export async function verifyCredentials(account: ReviewsAccount, timeoutMs: number): Promise<void> {
  const client = createReviewsClient({
    account,
    timeoutMs,
    tokenTimeoutMs: Math.min(timeoutMs, DEFAULT_TOKEN_TIMEOUT_MS),
  });
  await client.verifyCredentials();
}

type Started = { run: { id: string }; joined: boolean } | Error;

/**
 * The first full catalog sync, the orders backfill and the ratings back-sync (definitions, a full
 * reconciliation, then the feed); each is an Error when it could not be queued.
 */
export async function startFirstSyncs(
  deps: { db: Db; queues: Queues; config: ScheduleConfig },
  shopId: string,
): Promise<{ catalog: Started; orders: Started; ratings: true | Error }> {
  const catalog = await startSync(deps, shopId, "catalog").catch((e: Error) => e);
  const orders = await startSync(deps, shopId, "orders").catch((e: Error) => e);
  const ratings = await requestBackSync(deps, shopId).then(
    () => true as const,
    (e: Error) => e,
  );
  return { catalog, orders, ratings };
}

/** The account a connection points at: the customer at the service, at its address. */
type AccountRef = { connected: boolean; customerKey: string | null; apiUrl?: string | null };

/**
 * After a (re)connection: when the account is not the one the shop was connected to (another
 * customer, another service address, or a connection made again after a disconnect), the new
 * account holds none of what this database remembers sending, so that memory goes and the first
 * syncs send everything. Returns what was forgotten, or null for the same account. With a ledger,
 * a switch that forgot anything is reported on the Sync page.
 */
export async function forgetIfAnotherAccount(
  db: Db,
  shopId: string,
  before: AccountRef,
  after: Omit<AccountRef, "connected">,
  ledger?: ResendLedger,
): Promise<Forgotten | null> {
  const same =
    before.connected && before.customerKey === after.customerKey && (before.apiUrl ?? null) === (after.apiUrl ?? null);
  if (same) return null;
  const forgotten = await forgetWhatWasSent(db, shopId);
  // The page's note only: with Redis down, the first syncs cannot be queued either and say so.
  if (ledger && forgotten.products + forgotten.orders > 0)
    await reportAccountSwitch(ledger, shopId, forgotten).catch(() => undefined);
  return forgotten;
}
