import { ReviewsPermanentError, type ReviewSubmission } from "../../reviews";
import { attributesFor, type AttributeQuestion } from "./available-attributes";
import { mediaRules } from "./media-rules";
import { parseReviewInput } from "./review-input";
import { newGuestHandle, type ReviewOwner } from "./update-tokens";
import { openSubmission } from "./shopper-submission.server";
import { serviceUser } from "./writer-identity";
import { customerReviewAs } from "./customer-review.server";
import { json, keptOrRefused, type ReviewWriteDeps } from "./write-request.server";
import { alreadyReviewed, isDuplicateReview, theirReview } from "./already-reviewed";

// `POST <proxy>/products/<sku>/reviews`: a shopper's review. Order of checks: signature (401) →
// JSON within the size limit (415/413) → not seen before (409) → shopper limits (429) → input
// (422) → who writes: the signed customer, a verified order, or a guest when the merchant allows
// it (403 otherwise) → a logged-in customer's review tied to their order of the product, or
// refused when they reviewed it already (409, customer-review.server.ts) → the service. When the service fails after
// the shopper pressed send, the
// review is kept and a worker sends it (202 "received"): a shopper's review is never lost.
// Answers are JSON with codes the form translates, and never cached by anyone.

export async function submitReviewResponse(request: Request, sku: string, deps: ReviewWriteDeps): Promise<Response> {
  const open = await openSubmission(request, sku, deps, { what: "review", parse: parseReviewInput });
  if (open instanceof Response) return open;
  const { shop, customerId, input, client, writer } = open;
  const as = writer.kind === "customer" ? await customerReviewAs(deps, { shop, sku, client }, writer) : null;
  if (as?.kind === "reviewed") return alreadyReviewed(null);
  const base = {
    rating: input.rating,
    ...(input.text ? { text: input.text } : {}),
    ...(input.recommended !== undefined ? { recommended: input.recommended } : {}),
    source: "web",
  };
  // A verified order sends its token instead of a user: the service marks the review verified.
  const submission: ReviewSubmission =
    writer.kind === "order" || writer.kind === "link"
      ? { ...base, verificationTokenId: writer.verificationTokenId, orderId: writer.orderId }
      : as?.kind === "order"
        ? { ...base, verificationTokenId: as.verificationTokenId, orderId: as.orderId }
        : { ...base, ...serviceUser(writer) };
  // Remembered once the service took it or it was kept for the worker: a second one is refused.
  const remember = () =>
    writer.kind === "customer"
      ? deps.reviewed
          .add(shop, customerId, [sku])
          .catch((e: Error) => deps.log.warn({ shop, err: e.message }, "app proxy: reviewed product not remembered"))
      : Promise.resolve();
  const guestHandle = writer.kind === "customer" ? undefined : newGuestHandle();
  const owner: ReviewOwner = guestHandle ? { guestHandle } : { customerId };

  // The product's categories (which attributes apply) are asked at the same time as the review is
  // sent, so the shopper waits for one call to the service, not two.
  const categories = client
    .getSummary(sku, { pageSize: 1 })
    .then((s) => ((s.product as { categories?: unknown } | null | undefined)?.categories as string[] | undefined) ?? [])
    .catch(() => [] as string[]);
  try {
    const review = await client.submitReview(sku, submission);
    let attributes: AttributeQuestion[] = [];
    if (review.updateToken) {
      attributes = attributesFor(review.availableAttributes, await categories);
      await deps.updateTokens.keep(shop, review._id, { updateToken: review.updateToken, sku, owner, attributes });
    }
    await remember();
    return json(201, {
      status: "sent",
      review: { id: review._id, attributes },
      ...(review.updateToken ? { media: mediaRules((await deps.settingsOf(shop)).storefront) } : {}),
      ...(guestHandle ? { write: guestHandle } : {}),
    });
  } catch (error) {
    // The service already holds this buyer's review of the product through that order.
    if (isDuplicateReview(error)) {
      await remember();
      const order =
        "verificationTokenId" in submission && submission.verificationTokenId && submission.orderId
          ? { orderId: submission.orderId, verificationTokenId: submission.verificationTokenId }
          : null;
      return alreadyReviewed(await theirReview(client, order, sku));
    }
    const answer = await keptOrRefused(deps, { shop, sku, what: "review", submission }, error, {
      error: "refused",
      reason: error instanceof ReviewsPermanentError ? error.reason : "error",
    });
    if (answer.status === 202) await remember();
    return answer;
  }
}
