import type { OperationHandler } from "./router";
import type { ConsentLookup } from "./consent";
import type { SimCustomer } from "./orders";

// Customer accounts shoppers log in with on the local storefront ("log in as"), known to the
// simulated store so the app can read their e-mail as it would from Shopify. The order book's own
// generated customers are found through the consent sources.

export interface StorefrontCustomer {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
}

export const STOREFRONT_CUSTOMERS: StorefrontCustomer[] = [
  { id: "7001", firstName: "Ana", lastName: "Souza", email: "ana.souza@example.com" },
  { id: "7002", firstName: "Ben", lastName: "Carter", email: "ben.carter@example.com" },
  { id: "7003", firstName: "Carmen", lastName: "Díaz", email: "carmen.diaz@example.com" },
];

/** `CustomerIdentity` (app/.server/shopify/shopper-documents.ts): a customer's id, names and default e-mail. */
export function customerIdentityOperation(consents: ConsentLookup): OperationHandler {
  return {
    handle: (variables) => {
      const gid = typeof variables.id === "string" ? variables.id : "";
      const m = /^gid:\/\/shopify\/Customer\/(\d+)$/.exec(gid);
      if (!m)
        return {
          errors: [{ message: `Invalid global id '${gid}'`, extensions: { code: "argumentLiteralsIncompatible" } }],
        };
      const known = STOREFRONT_CUSTOMERS.find((c) => c.id === m[1]);
      if (known)
        return {
          data: {
            customer: {
              id: gid,
              firstName: known.firstName,
              lastName: known.lastName,
              defaultEmailAddress: { emailAddress: known.email },
            },
          },
        };
      const c = consents(Number(m[1]));
      if (!c) return { data: { customer: null } };
      return {
        data: {
          customer: {
            id: gid,
            firstName: null,
            lastName: null,
            defaultEmailAddress: c.email ? { emailAddress: c.email } : null,
          },
        },
      };
    },
  };
}

/** A storefront account as the order book's buyer (its orders are then that account's). */
export function storefrontBuyer(c: StorefrontCustomer): SimCustomer {
  return {
    id: Number(c.id),
    firstName: c.firstName,
    lastName: c.lastName,
    email: c.email,
    phone: null,
    emailConsent: "SUBSCRIBED",
    smsConsent: null,
    whatsappConsent: null,
    address: {
      firstName: c.firstName,
      lastName: c.lastName,
      address1: "Rua Augusta 1500",
      city: "São Paulo",
      zip: "01304-001",
      country: "Brazil",
      countryCode: "BR",
      phone: null,
    },
  };
}
