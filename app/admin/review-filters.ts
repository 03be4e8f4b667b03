/** The moderation queue's sort choices (the Admin API's `order`: field,direction). */
export const REVIEW_SORTS = [
  "created,-1",
  "created,1",
  "rating,-1",
  "rating,1",
  "moderatedAt,-1",
  "helpful,-1",
  "sku,1",
] as const;
