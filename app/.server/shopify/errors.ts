// Errors of the Shopify Admin API, sorted by what the caller should do:
// - ShopifyRetryableError: try again later (5xx, network, timeout, Shopify's internal errors);
//   ShopifyThrottledError is one, carrying how long to wait.
// - ShopifyPermanentError: retrying the same call will fail the same way (4xx, GraphQL errors in
//   the document, userErrors); ShopifyAuthError is one that means "the token no longer works"
//   (app uninstalled or scopes revoked): stop syncing the shop rather than retry.
// - ShopifyAddressRefusedError: Shopify refused this server's address (the app's IP allowlist):
//   every call of every shop fails the same way until the allowlist is fixed, so stop calling,
//   park the work, and probe now and then (access-state.ts); neither retryable nor permanent.
// The job layer maps them: retryable → backoff, throttled → rate-limit the queue, permanent → fail
// the job with a visible reason.

export type ShopifyErrorKind = "retryable" | "throttled" | "permanent" | "auth" | "address-refused";

export interface GraphqlErrorEntry {
  message: string;
  path?: (string | number)[];
  extensions?: { code?: string; [k: string]: unknown };
}

export interface UserError {
  field?: string[] | null;
  message: string;
  code?: string | null;
}

export abstract class ShopifyApiError extends Error {
  abstract readonly kind: ShopifyErrorKind;
  /** The shop domain; undefined for calls outside a shop's API (bulk result downloads). */
  readonly shop: string | undefined;
  readonly status?: number;
  readonly errors?: GraphqlErrorEntry[];

  constructor(
    message: string,
    opts: { shop?: string; status?: number; errors?: GraphqlErrorEntry[]; cause?: unknown },
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = new.target.name;
    this.shop = opts.shop;
    this.status = opts.status;
    this.errors = opts.errors;
  }

  get retryable(): boolean {
    return this.kind === "retryable" || this.kind === "throttled";
  }
}

export class ShopifyRetryableError extends ShopifyApiError {
  readonly kind: ShopifyErrorKind = "retryable";
}

export class ShopifyThrottledError extends ShopifyRetryableError {
  override readonly kind: ShopifyErrorKind = "throttled";
  /** How long to wait before the bucket can pay for the call again. */
  readonly retryAfterMs: number;

  constructor(
    message: string,
    opts: { shop?: string; retryAfterMs: number; status?: number; errors?: GraphqlErrorEntry[] },
  ) {
    super(message, opts);
    this.retryAfterMs = opts.retryAfterMs;
  }
}

export class ShopifyPermanentError extends ShopifyApiError {
  readonly kind: ShopifyErrorKind = "permanent";
}

export class ShopifyAuthError extends ShopifyPermanentError {
  override readonly kind: ShopifyErrorKind = "auth";
}

/**
 * An HTTP 403 from the Admin API that is the IP allowlist's: the request came from an address the
 * app's allowlist does not hold, or whose source Shopify could not confirm. Shopify's body is kept
 * (`body`, cut short) for the operator. Told apart from a missing scope, which GraphQL answers
 * with an ACCESS_DENIED error entry (HTTP 200, or a 403 carrying that entry): see admin-graphql.ts.
 */
export class ShopifyAddressRefusedError extends ShopifyApiError {
  readonly kind: ShopifyErrorKind = "address-refused";
  readonly body: string;

  constructor(message: string, opts: { shop?: string; body: string }) {
    super(message, { shop: opts.shop, status: 403 });
    this.body = opts.body;
  }
}

/** What a caller holding a refusal should do: stop calling this shop's Admin API for now. */
export function isAddressRefused(e: unknown): e is ShopifyAddressRefusedError {
  return e instanceof ShopifyAddressRefusedError;
}

export class ShopifyUserErrors extends ShopifyPermanentError {
  readonly userErrors: UserError[];

  constructor(operation: string, shop: string, userErrors: UserError[]) {
    super(
      `${operation}: ${userErrors.map((e) => (e.field?.length ? `${e.field.join(".")}: ` : "") + e.message).join("; ")}`,
      {
        shop,
      },
    );
    this.userErrors = userErrors;
  }
}

/** Throws ShopifyUserErrors when a mutation payload carries userErrors. */
export function assertNoUserErrors(
  operation: string,
  shop: string,
  payload: { userErrors?: UserError[] | null } | null | undefined,
): void {
  const errs = payload?.userErrors ?? [];
  if (errs.length > 0) throw new ShopifyUserErrors(operation, shop, errs);
}

export function isShopifyApiError(e: unknown): e is ShopifyApiError {
  return e instanceof ShopifyApiError;
}

/**
 * The shop's offline token can no longer be renewed (refresh token revoked, unused for 90 days,
 * app uninstalled; or a non-expiring token refused): only the merchant opening the app brings a new
 * one. Retrying is pointless until then.
 */
export class ShopifyReauthRequiredError extends ShopifyAuthError {
  readonly reason: string;

  constructor(message: string, opts: { shop: string; reason: string; status?: number }) {
    super(message, opts);
    this.reason = opts.reason;
  }
}

/**
 * No call was made: Shopify refused the shop's offline token (a dead refresh token, a non-expiring
 * token after 2027-01-01, a refused exchange) and the shop waits for its merchant to open the app.
 * Neither a Shopify answer nor a failure of the work: the caller parks it (workers/) until the
 * merchant is back, when it runs as it would have. Deliberately not a ShopifyApiError, which callers
 * sort into retry or give up.
 */
export class ShopWaitsForMerchantError extends Error {
  readonly shop: string;
  readonly reason: string;

  constructor(shop: string, reason: string, options?: { cause?: unknown }) {
    super(
      `Shopify refused ${shop}'s offline token (${reason}): no call until the merchant opens the app`,
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = "ShopWaitsForMerchantError";
    this.shop = shop;
    this.reason = reason;
  }
}

export function waitsForMerchant(e: unknown): e is ShopWaitsForMerchantError {
  return e instanceof ShopWaitsForMerchantError;
}
