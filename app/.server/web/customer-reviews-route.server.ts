import type { Logger } from "pino";
import type { ReviewsClient } from "../reviews";
import { ShopNotConnectedError, ShopNotFoundError } from "../shops";
import { failureStatus } from "../storefront";
import type { Db } from "../db";
import { createCustomerReviewIndex, customerReviewsPage } from "../customers";

// The backend of the customer details block (extensions/customer-reviews-block): the admin
// extension's fetch carries Shopify's ID token (`Authorization: Bearer`), which the library's
// `authenticate.admin` checks with the app's secret and answers for (401, the browser's preflight,
// CORS). The shop is the token's, never a parameter; the customer is the page's.

type AdminAuthenticate = (request: Request) => Promise<{
  session: { shop: string };
  cors: (response: Response) => Response;
}>;

export interface CustomerReviewsRouteDeps {
  authenticate: AdminAuthenticate;
  db: Db;
  shopIdOf: (domain: string) => Promise<string | null>;
  reviewsFor: (domain: string) => Promise<ReviewsClient>;
  log: Logger;
}

/** What the block should do about a failure: connect the app first, try again later, or give up. */
export type CustomerReviewsError = "not_connected" | "try_later" | "failed";

/** `gid://shopify/Customer/1` or `1` → `1`; null otherwise. */
export function legacyCustomerId(value: string | null): string | null {
  const m = /^(?:gid:\/\/shopify\/Customer\/)?(\d{1,20})$/.exec(value ?? "");
  return m ? m[1]! : null;
}

/** `?page=` from 1; anything else is the first page. */
export function pageOf(value: string | null): number {
  const n = Number(value);
  return Number.isSafeInteger(n) && n >= 1 && n <= 10_000 ? n : 1;
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "private, no-store", ...headers },
  });

export async function answerCustomerReviews(request: Request, deps: CustomerReviewsRouteDeps): Promise<Response> {
  let auth: Awaited<ReturnType<AdminAuthenticate>>;
  try {
    auth = await deps.authenticate(request);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
  const { session, cors } = auth;
  const url = new URL(request.url);
  const customerId = legacyCustomerId(url.searchParams.get("customer"));
  if (!customerId) return cors(json(400, { error: "customer must be a customer id" }));
  const page = pageOf(url.searchParams.get("page"));
  try {
    const shopId = await deps.shopIdOf(session.shop);
    if (!shopId) return cors(json(409, { error: "not_connected" satisfies CustomerReviewsError }));
    const client = await deps.reviewsFor(session.shop);
    const answer = await customerReviewsPage(
      { index: createCustomerReviewIndex(deps.db), admin: client.admin, signal: request.signal },
      shopId,
      customerId,
      page,
    );
    return cors(json(200, answer));
  } catch (error) {
    if (error instanceof ShopNotConnectedError || error instanceof ShopNotFoundError)
      return cors(json(409, { error: "not_connected" satisfies CustomerReviewsError }));
    const { status, retryAfterSeconds } = failureStatus(error);
    deps.log[status === 502 ? "error" : "warn"](
      { shop: session.shop, err: error instanceof Error ? error.message : String(error) },
      "customer reviews block: the service did not answer",
    );
    const code: CustomerReviewsError = status === 503 ? "try_later" : "failed";
    return cors(json(status, { error: code }, retryAfterSeconds ? { "Retry-After": String(retryAfterSeconds) } : {}));
  }
}
