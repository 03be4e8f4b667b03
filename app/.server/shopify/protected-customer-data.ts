// The protected customer data the app reads, as Shopify's review asks it to be declared (Partner
// Dashboard → the app → API access → Protected customer data access): the data itself (level 1)
// with the reasons, then each protected field (name, email, phone, address: level 2) with its own.
// protected-customer-data.test.ts holds this to what the Admin documents select (Shopify's schema
// marks each protected field) and docs/shopify-access.md gives it to whoever fills in the form.

export type ProtectedField = "name" | "email" | "phone" | "address";

export interface DataUse {
  /** The reason given to Shopify. */
  why: string;
  /** What reads it: operation names of the Admin documents, bulk query builders, webhook topics. */
  by: readonly string[];
}

const ORDER_TOPICS = [
  "orders/create",
  "orders/updated",
  "orders/paid",
  "orders/cancelled",
  "orders/fulfilled",
  "orders/partially_fulfilled",
] as const;
const CONSENT_TOPICS = [
  "customers_email_marketing_consent/update",
  "customers_marketing_consent/update",
  "customers_whats_app_marketing_consent/update",
] as const;

export const PROTECTED_CUSTOMER_DATA = {
  /** 2: name, e-mail or phone fields are read (level 1 is customer data without them). */
  level: 2,
  /** Level 1: data about buyers and shoppers (orders, their customer, marketing consent). */
  customerData: {
    why: "Review requests follow a buyer's order and its delivery, and a review is tied to a verified purchase; the buyer's marketing consent per channel decides whether a request may go by e-mail, SMS or WhatsApp; a logged-in shopper sees and rates their own orders.",
    by: [
      ...ORDER_TOPICS,
      "bulkOrdersQuery",
      "OrdersPage",
      "OrderLineItemsPage",
      "CustomerConsent",
      ...CONSENT_TOPICS,
      "CustomerIdentity",
      "CustomerOrders",
      "CustomerOrder",
      "CustomerOrderLines",
      "OrderByName",
      "RateCheckOrder",
      "RateCheckOrderByName",
    ],
  },
  fields: {
    name: {
      why: "The reviews service addresses review requests to the buyer and names a review's author: each order carries the buyer's name (the customer's, else the shipping or billing address's); a logged-in shopper's name goes on the review or question they write.",
      by: [...ORDER_TOPICS, "bulkOrdersQuery", "OrdersPage", "CustomerIdentity"],
    },
    email: {
      why: "Review requests go by e-mail, and a review is verified against the buyer's address: each order carries the buyer's e-mail; a logged-in shopper's e-mail ties their review to their purchases.",
      by: [...ORDER_TOPICS, "bulkOrdersQuery", "OrdersPage", "CustomerIdentity"],
    },
    phone: {
      why: "Review requests go by SMS or WhatsApp where the buyer consented: each order carries the buyer's phone (the customer's, the order's, else an address's) in international form.",
      by: [...ORDER_TOPICS, "bulkOrdersQuery", "OrdersPage"],
    },
  },
  /** Protected fields not requested, and why the app does without them. */
  notRequested: {
    address:
      "From an order's addresses the app reads only the names and phone numbers (the name and phone fields) and the country code, which is not protected (it completes national phone numbers); street, zip and coordinates are never used, so Shopify may redact them.",
  },
} as const satisfies {
  level: 1 | 2;
  customerData: DataUse;
  fields: Partial<Record<ProtectedField, DataUse>>;
  notRequested: Partial<Record<ProtectedField, string>>;
};
