/** The questions list's status choices (the Admin API's `status`; `all` is a query value). */
export const QUESTION_STATUSES = ["all", "sent", "published", "removed", "filtered"] as const;
/** The survey responses' groups (the Admin API's `type`). */
export const SURVEY_TYPES = ["all", "promoters", "neutral", "detractors"] as const;
