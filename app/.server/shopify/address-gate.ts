import type { AdminGraphql } from "./admin-graphql";
import type { AddressRefusals } from "./address-refusals";
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
