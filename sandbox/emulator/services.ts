// What every route handler gets: the store, auth, the clock and the public URLs of this instance.
import type { AuthService } from "./auth";
import type { Clock } from "./clock";
import { badRequest, notFound } from "./http";
import type { RouteContext } from "./router";
import type { CustomerState, Store } from "./store";

export interface EmulatorUrls {
  origin: string;
  baseUrl: string;
  authUrl: string;
  rateUrl: string;
}

export interface Services {
  store: Store;
  auth: AuthService;
  clock: Clock;
  urls: EmulatorUrls;
  /** Signs presigned upload URLs (per process, so URLs from a previous run stop working). */
  uploadSecret: string;
  /** Page size of the admin listings (the spec does not state one). */
  adminPageSize: number;
}

export type Ctx = RouteContext<Services>;

/**
 * The partition of `{customer}` for Client API calls. Client API calls are not authenticated
 * (spec: "not shown"), so an unknown customer key answers 404 instead of inventing an empty store:
 * a misconfigured key shows up at once. Known = has an account or has state (e.g. seeded).
 */
export function clientCustomer(ctx: Ctx): CustomerState {
  const customer = ctx.params.customer;
  const { store, auth } = ctx.services;
  if (!store.has(customer) && !auth.customers().has(customer)) throw notFound(`unknown customer ${customer}`);
  return store.customer(customer);
}

/** Admin routes run after the token check, so the customer is known to be the caller's. */
export function adminCustomer(ctx: Ctx): CustomerState {
  return ctx.services.store.customer(ctx.params.customer);
}

export function bodyObject(ctx: Ctx): Record<string, unknown> {
  const b = ctx.body;
  if (b === undefined) return {};
  if (typeof b !== "object" || b === null || Array.isArray(b)) {
    throw badRequest("body must be a JSON object");
  }
  return b as Record<string, unknown>;
}
