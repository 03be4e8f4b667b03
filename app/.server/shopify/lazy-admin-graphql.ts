import type { AdminGraphql } from "./admin-graphql";

// An Admin API client made at its first call. A quiet back-sync poll (nothing changed at the
// service) calls Shopify not at all, and making the client costs a session read, a decryption and,
// once an hour, a token refresh: at 10,000 shops most polls are quiet. A failure to make it (no
// offline session, a refused token) surfaces at that first call, with the same error.

export function lazyAdminGraphql(shop: string, make: () => Promise<AdminGraphql>): AdminGraphql {
  let client: Promise<AdminGraphql> | undefined;
  const made = () => (client ??= make());
  return {
    shop,
    query: async (document, variables, opts) => (await made()).query(document, variables, opts),
    request: async (document, variables, opts) => (await made()).request(document, variables, opts),
  };
}
