import { PRODUCT_KEY, REVIEW_ID } from "../proxy/path-keys";
import { ReviewsError } from "../../reviews";
import { clientIp } from "../proxy/rate-limits";
import { parseAttributeAnswers } from "./attribute-answers";
import { checkMedia } from "./media-rules";
import { json, readSignedWrite, type ReviewWriteDeps } from "./write-request.server";
import type { KeptReview, ReviewOwner } from "./update-tokens";

// What a shopper adds to the review they just wrote: attribute answers (and photos and a video).
// The service wants the review's `updateToken`, which never left the server: it is found by the
// review id, and only for the shopper who wrote that review — the signed customer, or the guest
// whose browser holds the handle it was given for that review. Anyone else gets 403.

type Authorized = { shop: string; kept: KeptReview; body: Record<string, unknown> };

/** Signature, size, replay, limit, then the review's token for its author; a Response otherwise. */
async function authorize(
  request: Request,
  sku: string,
  reviewId: string,
  deps: ReviewWriteDeps,
): Promise<Authorized | Response> {
  const write = await readSignedWrite(request, deps, {
    pathOk: PRODUCT_KEY.test(sku) && REVIEW_ID.test(reviewId),
    badPath: "bad_review",
    maxBytes: deps.settings.bodyMaxBytes,
  });
  if (write instanceof Response) return write;
  const { shop, customerId } = write;
  const body = (write.body && typeof write.body === "object" ? write.body : {}) as Record<string, unknown>;
  const limit = await deps.limits.hit("write-ip", clientIp(request), deps.settings.ipLimit);
  if (!limit.ok) return json(429, { error: "busy" }, { "Retry-After": String(limit.retryAfterSeconds) });
  const handle = typeof body.write === "string" ? body.write : "";
  const owner: ReviewOwner | null = customerId ? { customerId } : handle ? { guestHandle: handle } : null;
  const kept = owner ? await deps.updateTokens.take(shop, reviewId, sku, owner) : null;
  if (!kept) return json(403, { error: "not_your_review" });
  return { shop, kept, body };
}

function serviceFailure(deps: ReviewWriteDeps, shop: string, error: unknown): Response {
  deps.log.warn(
    { shop, err: error instanceof ReviewsError ? error.toJSON() : (error as Error).message },
    "app proxy: review addition not sent",
  );
  const retry = error instanceof ReviewsError && (error.kind === "retryable" || error.kind === "rate_limited");
  return json(retry ? 503 : 422, { error: retry ? "unavailable" : "refused" }, retry ? { "Retry-After": "10" } : {});
}

/** `POST <proxy>/products/<sku>/reviews/<reviewId>/attributes` `{attributes: [{id, value}], write?}`. */
export async function sendAttributesResponse(
  request: Request,
  sku: string,
  reviewId: string,
  deps: ReviewWriteDeps,
): Promise<Response> {
  const auth = await authorize(request, sku, reviewId, deps);
  if (auth instanceof Response) return auth;
  const answers = parseAttributeAnswers(auth.body, auth.kept.attributes);
  if (!answers.ok) return json(422, { error: answers.error });
  try {
    const client = await deps.reviewsFor(auth.shop);
    await client.sendAttributes(sku, reviewId, { updateToken: auth.kept.updateToken, attributes: answers.attributes });
    return json(200, { status: "sent" });
  } catch (error) {
    return serviceFailure(deps, auth.shop, error);
  }
}

/**
 * `POST <proxy>/products/<sku>/reviews/<reviewId>/media` `{kind: photo|video, mimeType, fileSize, write?}`
 * → `{uploadUrl, fileKey}`: the browser PUTs the file straight to the storage's signed URL.
 */
export async function presignMediaResponse(
  request: Request,
  sku: string,
  reviewId: string,
  deps: ReviewWriteDeps,
): Promise<Response> {
  const auth = await authorize(request, sku, reviewId, deps);
  if (auth instanceof Response) return auth;
  const { kind, mimeType, fileSize } = auth.body as { kind?: unknown; mimeType?: unknown; fileSize?: unknown };
  if ((kind !== "photo" && kind !== "video") || typeof mimeType !== "string" || typeof fileSize !== "number")
    return json(422, { error: "invalid" });
  const settings = (await deps.settingsOf(auth.shop)).storefront;
  const check = checkMedia(kind, mimeType, fileSize, settings);
  if (!check.ok) return json(422, { error: check.error });
  const used = await deps.updateTokens.countPhoto(auth.shop, reviewId, kind === "photo" ? 1 : 0);
  if (kind === "photo" && used > settings.photosPerReview) return json(422, { error: "count" });
  try {
    const client = await deps.reviewsFor(auth.shop);
    const body = { updateToken: auth.kept.updateToken, mimeType, fileSize };
    const upload =
      kind === "photo"
        ? (await client.presignPictures(sku, reviewId, body)).urls[0]
        : await client.presignVideo(sku, reviewId, body);
    if (!upload) return json(502, { error: "unavailable" });
    return json(200, { uploadUrl: upload.uploadUrl, fileKey: upload.fileKey });
  } catch (error) {
    return serviceFailure(deps, auth.shop, error);
  }
}

/** `POST <proxy>/products/<sku>/reviews/<reviewId>/media/confirm` `{kind, keys: [fileKey…], write?}`. */
export async function confirmMediaResponse(
  request: Request,
  sku: string,
  reviewId: string,
  deps: ReviewWriteDeps,
): Promise<Response> {
  const auth = await authorize(request, sku, reviewId, deps);
  if (auth instanceof Response) return auth;
  const { kind, keys } = auth.body as { kind?: unknown; keys?: unknown };
  const list = Array.isArray(keys)
    ? keys.filter((k): k is string => typeof k === "string" && k.length > 0 && k.length < 512)
    : [];
  if ((kind !== "photo" && kind !== "video") || list.length === 0 || (kind === "video" && list.length !== 1))
    return json(422, { error: "invalid" });
  try {
    const client = await deps.reviewsFor(auth.shop);
    const updateToken = auth.kept.updateToken;
    if (kind === "photo") await client.confirmPictures(sku, reviewId, { updateToken, keys: list });
    else await client.confirmVideo(sku, reviewId, { updateToken, key: list[0]! });
    return json(200, { status: "sent" });
  } catch (error) {
    return serviceFailure(deps, auth.shop, error);
  }
}
