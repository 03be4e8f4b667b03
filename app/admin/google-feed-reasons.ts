import type { ExclusionReason } from "../.server/google";
import type { MessageKey } from "../shared/i18n/en";

// The words for each reason the Google feed leaves a review out (the codes are data in
// app/.server/google/feed-entry.ts): a new code without words fails the typecheck here.
export const EXCLUSION_REASON_KEYS = {
  not_published: "googleFeed.reason.not_published",
  empty_content: "googleFeed.reason.empty_content",
  product_not_in_catalog: "googleFeed.reason.product_not_in_catalog",
  product_inactive: "googleFeed.reason.product_inactive",
  no_product_identifier: "googleFeed.reason.no_product_identifier",
  no_product_url: "googleFeed.reason.no_product_url",
  invalid_rating: "googleFeed.reason.invalid_rating",
  invalid_timestamp: "googleFeed.reason.invalid_timestamp",
  no_review_id: "googleFeed.reason.no_review_id",
} as const satisfies Record<ExclusionReason, MessageKey>;
