import { checkProductReviewFeed, FEED_SCHEMA_VERSION } from "../../app/.server/google";

// `dev:local --check`'s verdict on the demo shop's Google feed as the storefront's app proxy
// served it: Google's schema 2.4 as the app's checker reads it (version, schema location, element
// order, the 2.4 elements' values), not empty. Pure, so the verdict is tested without the demo.

/** The line the check prints, or an error naming what is wrong. */
export function googleFeedVerdict(status: number, xml: string): string {
  if (status !== 200) throw new Error(`google feed check: the app proxy answered ${status}`);
  const problems = checkProductReviewFeed(xml);
  if (problems.length) {
    const first = problems.slice(0, 3).map((p) => `${p.path}: ${p.message}`);
    throw new Error(`google feed check: ${problems.length} problems, ${first.join("; ")}`);
  }
  const count = (pattern: RegExp) => (xml.match(pattern) ?? []).length;
  const reviews = count(/<review>/g);
  if (reviews === 0) throw new Error("google feed check: the demo shop's feed holds no review");
  const verified = count(/<is_verified_purchase>true<\/is_verified_purchase>/g);
  const withOrder = count(/<transaction_id>/g);
  const requested = count(/<collection_method>post_fulfillment<\/collection_method>/g);
  return (
    `google feed check: ${reviews} reviews (${verified} verified purchases, ${withOrder} with their order, ` +
    `${requested} from review requests) in a feed that passes the ${FEED_SCHEMA_VERSION} checker, through the app proxy`
  );
}
