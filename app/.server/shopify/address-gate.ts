import type { Logger } from "pino";
import { observeAddressRefusal } from "../metrics/metrics";
import type { Queues } from "../queues/queues";
import type { AdminGraphql } from "./admin-graphql";
import { scheduleAddressProbe } from "./address-probe";
import { createAddressRefusals, type AddressRefusals } from "./address-refusals";
import { ShopifyAddressRefusedError, isAddressRefused } from "./errors";

// The Admin API of a shop behind the IP allowlist's state: while Shopify refuses this server's
// address for the shop, no call is made at all (the caller gets ShopifyAddressRefusedError at
// once and parks its work); a call that meets a refusal records it, and the first one to do so
// has the probe scheduled (`onFirstRefusal`). Only the probe talks to Shopify meanwhile.

export type AdminFor = (shop: string) => Promise<AdminGraphql>;

export function gatedAdminFor(
  adminFor: AdminFor,
  refusals: AddressRefusals,
  onFirstRefusal: (shop: string, error: ShopifyAddressRefusedError) => Promise<void>,
): AdminFor {
  const record = async (shop: string, error: ShopifyAddressRefusedError) => {
    const { first } = await refusals.refuse(shop, error.body);
    if (first) await onFirstRefusal(shop, error);
  };
  return async (shop) => {
    const refused = await refusals.get(shop);
    if (refused) {
      throw new ShopifyAddressRefusedError(
        `Admin API calls paused since ${refused.since.toISOString()}: Shopify refused this server's address (IP allowlist); a probe retries`,
        { shop, body: refused.detail },
      );
    }
    const gql = await adminFor(shop);
    const watch = async <T>(call: () => Promise<T>): Promise<T> => {
      try {
        return await call();
      } catch (error) {
        if (isAddressRefused(error)) await record(shop, error);
        throw error;
      }
    };
    const gated: AdminGraphql = {
      shop: gql.shop,
      query: <T>(document: string, variables?: Record<string, unknown>, opts?: { signal?: AbortSignal }) =>
        watch(() => gql.query<T>(document, variables, opts)),
      request: <T>(document: string, variables?: Record<string, unknown>, opts?: { signal?: AbortSignal }) =>
        watch(() => gql.request<T>(document, variables, opts)),
    };
    return gated;
  };
}

/**
 * The gate as every process uses it: a shop's first refusal is logged, counted and has the probe
 * scheduled (which clears the state and re-queues parked work once Shopify accepts calls again).
 */
export function addressGatedAdmin(deps: {
  adminFor: AdminFor;
  queues: Queues;
  config: { REDIS_PREFIX: string; ADMIN_PROBE_MIN_MS: number; ADMIN_PROBE_MAX_MS: number };
  log: Logger;
}): { adminFor: AdminFor; refusals: AddressRefusals } {
  const { queues, config, log } = deps;
  const refusals = createAddressRefusals(queues.redis, config.REDIS_PREFIX);
  const adminFor = gatedAdminFor(deps.adminFor, refusals, async (shop, error) => {
    log.warn(
      { shop, detail: error.body },
      "Shopify refused this server's address (IP allowlist): Admin API work parked until a probe passes",
    );
    observeAddressRefusal("refused", (await refusals.refusedShops()).length);
    await scheduleAddressProbe({ queues, refusals, config }, shop, 0);
  });
  return { adminFor, refusals };
}
