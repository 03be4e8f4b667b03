import { PRODUCT_KEY, REVIEW_ID } from "../proxy/path-keys";
import { createHash } from "node:crypto";
import { ReviewsError } from "../../reviews";
import { clientIp } from "../proxy/rate-limits";
import { markTouched } from "../../activity";
import { json, readSignedWrite, type ReviewWriteDeps } from "./write-request.server";

// `POST <proxy>/products/<sku>/reviews/<reviewId>/vote` `{vote: helpful|unhelpful, voter}`: one
// helpful or not-helpful mark per shopper per review. The shopper is the signed customer, or for a
// guest the random id their browser keeps (`voter`); who voted is remembered here (Redis, keyed by
// a hash, no personal data), so a second vote is refused whatever the service would do.
// The service wants `userId` + `email` on a vote: the customer's own, or for a guest a stand-in that
// names nobody (`guest-<hash>` at the reserved `.invalid` domain, docs/reviews-service.md).
// A repeat answers 409 with the vote given first, so a browser that did not remember it (another
// device of the same customer) shows it pressed. A counted vote names the product for the next
// back-sync run: the counts in the product's metafields (the block's first page) then include it.

const VOTER = /^[A-Za-z0-9-]{16,64}$/;
const REMEMBER_S = 365 * 24 * 3600;

export async function voteResponse(
  request: Request,
  sku: string,
  reviewId: string,
  deps: ReviewWriteDeps,
): Promise<Response> {
  const write = await readSignedWrite(request, deps, {
    pathOk: PRODUCT_KEY.test(sku) && REVIEW_ID.test(reviewId),
    badPath: "bad_review",
    maxBytes: 1024,
  });
  if (write instanceof Response) return write;
  const { shop, customerId } = write;
  const body = (write.body && typeof write.body === "object" ? write.body : {}) as { vote?: unknown; voter?: unknown };
  if (body.vote !== "helpful" && body.vote !== "unhelpful") return json(422, { error: "invalid" });
  const voter = typeof body.voter === "string" && VOTER.test(body.voter) ? body.voter : null;
  if (!customerId && !voter) return json(422, { error: "invalid" });
  const limit = await deps.limits.hit("vote-ip", clientIp(request), deps.settings.voteLimit);
  if (!limit.ok) return json(429, { error: "busy" }, { "Retry-After": String(limit.retryAfterSeconds) });

  const who = createHash("sha256")
    .update(`${shop}\n${customerId ? `customer:${customerId}` : `browser:${voter}`}`)
    .digest("base64url")
    .slice(0, 32);
  const key = `${deps.settings.redisPrefix}:votes:${shop}:${reviewId}:${who}`;
  if ((await deps.redis.set(key, body.vote, "EX", REMEMBER_S, "NX")) !== "OK") {
    const given = await deps.redis.get(key);
    return json(409, {
      error: "already_voted",
      ...(given === "helpful" || given === "unhelpful" ? { vote: given } : {}),
    });
  }
  try {
    const client = await deps.reviewsFor(shop);
    const identity = customerId
      ? await deps.customerIdentity(shop, customerId)
      : { userId: `guest-${who}`, email: `guest-${who.toLowerCase()}@voter.invalid` };
    const voterIdentity = { userId: identity.userId, email: identity.email };
    const result =
      body.vote === "helpful"
        ? await client.likeReview(sku, reviewId, voterIdentity)
        : await client.dislikeReview(sku, reviewId, voterIdentity);
    await markTouched(deps.redis, deps.settings.redisPrefix, shop, sku).catch((e: Error) =>
      deps.log.warn({ shop, err: e.message }, "app proxy: voted product not named for the back-sync"),
    );
    return json(200, { helpful: result.helpful, unhelpful: result.unhelpful });
  } catch (error) {
    // Not counted: the shopper may try again.
    await deps.redis.del(key);
    deps.log.warn(
      { shop, err: error instanceof ReviewsError ? error.toJSON() : (error as Error).message },
      "app proxy: vote not counted",
    );
    const notFound = error instanceof ReviewsError && error.kind === "permanent";
    return json(notFound ? 404 : 503, { error: notFound ? "not_found" : "unavailable" });
  }
}
