/** The product report's eight orders (the Admin API's `order`). */
export const REPORT_ORDERS = [
  "MoreReviews",
  "LessReviews",
  "MostPositive",
  "MostNegative",
  "PositiveMoreReviews",
  "PositiveLessReviews",
  "NegativeMoreReviews",
  "NegativeLessReviews",
] as const;
