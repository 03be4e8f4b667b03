import {
  ReviewsAuthError,
  ReviewsError,
  ReviewsPermanentError,
  ReviewsRateLimitedError,
  ReviewsResponseError,
  ReviewsRetryableError,
} from "../reviews";
import { ShopNotConnectedError } from "../shops";
import type { UiMessage } from "../../shared/messages";

// The reviews client's typed errors in words a merchant understands (keys of the admin's
// dictionaries): what happened and what to do, never a stack trace or a request path.

export function serviceErrorMessage(error: unknown): UiMessage {
  if (error instanceof ShopNotConnectedError) return { key: "common.notConnected" };
  if (error instanceof ReviewsAuthError) return { key: "error.auth" };
  if (error instanceof ReviewsRateLimitedError)
    return { key: "error.rateLimited", params: { seconds: Math.max(1, Math.ceil(error.retryAfterMs / 1000)) } };
  if (error instanceof ReviewsRetryableError) return { key: "error.unreachable" };
  if (error instanceof ReviewsPermanentError) {
    if (error.reason === "not_found") return { key: "error.notFound" };
    // The service's own words (already scrubbed of secrets and tokens by the client).
    const detail = error.serviceMessage ?? error.serviceError ?? error.issues.join("; ") ?? String(error.status ?? "");
    return { key: "error.refused", params: { detail: detail || String(error.status ?? "") } };
  }
  if (error instanceof ReviewsResponseError) return { key: "error.response" };
  if (error instanceof ReviewsError) return { key: "error.unknown" };
  throw error;
}

/** Runs a call to the service; a service error becomes a message for the page instead of a 500. */
export async function orMessage<T>(
  call: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; error: UiMessage }> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    return { ok: false, error: serviceErrorMessage(error) };
  }
}
