import { z } from "zod";
import { createTtlCache, rememberPromise } from "../../cache";
import { type AdminGraphql, CUSTOMER_IDENTITY } from "../../shopify";

// Who a logged-in shopper is, for the service: `userId` (the Shopify customer id, as the order sync
// sends it) and the e-mail, read from Shopify on the server. The identity never comes from the
// browser: the customer id is the app proxy's signed `logged_in_customer_id`. The e-mail is
// protected customer data: it is kept in this process's memory only, briefly, and never logged.

export interface CustomerIdentity {
  userId: string;
  email: string;
  /** How the service will most likely show the reviewer: first name and last initial. */
  displayName: string;
}

/** The customer has no e-mail on file (or no longer exists): they cannot write as themselves. */
export class CustomerWithoutEmailError extends Error {
  constructor() {
    super("the logged-in customer has no e-mail address on file");
    this.name = "CustomerWithoutEmailError";
  }
}

const responseSchema = z.object({
  customer: z
    .looseObject({
      firstName: z.string().nullish(),
      lastName: z.string().nullish(),
      defaultEmailAddress: z.looseObject({ emailAddress: z.string().nullish() }).nullish(),
    })
    .nullable(),
});

/** The logged-in customer's id from the signed proxy query; null when logged out. */
export function loggedInCustomerId(request: Request): string | null {
  const id = new URL(request.url).searchParams.get("logged_in_customer_id") ?? "";
  return /^\d{1,20}$/.test(id) ? id : null;
}

export interface CustomerIdentityOptions {
  adminFor(shop: string): Promise<AdminGraphql>;
  ttlMs: number;
  /** Entries kept at most (the least recently used dropped first). */
  maxEntries?: number;
  now?: () => number;
}

export function createCustomerIdentities(opts: CustomerIdentityOptions) {
  const cache = createTtlCache<Promise<CustomerIdentity>>({
    max: opts.maxEntries ?? 5_000,
    ttlMs: opts.ttlMs,
    now: opts.now,
  });
  return async function customerIdentity(shop: string, customerId: string): Promise<CustomerIdentity> {
    // A failed read is not remembered: the next request asks again.
    return rememberPromise(cache, `${shop}\n${customerId}`, async () => {
      const gql = await opts.adminFor(shop);
      const data = responseSchema.parse(
        await gql.query(CUSTOMER_IDENTITY, { id: `gid://shopify/Customer/${customerId}` }),
      );
      const email = data.customer?.defaultEmailAddress?.emailAddress?.trim();
      if (!data.customer || !email) throw new CustomerWithoutEmailError();
      const first = data.customer.firstName?.trim() ?? "";
      const last = data.customer.lastName?.trim() ?? "";
      return { userId: customerId, email, displayName: [first, last ? `${last[0]}.` : ""].filter(Boolean).join(" ") };
    });
  };
}
export type CustomerIdentities = ReturnType<typeof createCustomerIdentities>;
