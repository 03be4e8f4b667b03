import type { SubmittedReview } from "../../reviews";

// The attributes a shopper is asked to rate after their review is accepted: those of the account
// whose categories include one of the product's (or that apply to every product), in the order the
// merchant set. Only what the form needs to draw them goes to the browser.

export interface AttributeQuestion {
  id: string;
  title: string;
  description: string;
  type: "stars" | "multiple-choice";
  choices: string[];
}

type Available = NonNullable<SubmittedReview["availableAttributes"]>[number] & {
  order?: unknown;
  description?: unknown;
};

export function attributesFor(
  available: SubmittedReview["availableAttributes"],
  productCategories: string[],
): AttributeQuestion[] {
  const mine = new Set(productCategories.map((c) => c.toLowerCase()));
  return ((available ?? []) as Available[])
    .filter((a) => !a.categories || a.categories.length === 0 || a.categories.some((c) => mine.has(c.toLowerCase())))
    .filter((a) => a.type === "stars" || (a.type === "multiple-choice" && (a.choices?.length ?? 0) > 0))
    .map((a, i) => ({ a, i, order: typeof a.order === "number" ? a.order : Number.MAX_SAFE_INTEGER }))
    .sort((x, y) => x.order - y.order || x.i - y.i)
    .map(({ a }) => ({
      id: a._id,
      title: a.title ?? "",
      description: typeof a.description === "string" ? a.description : "",
      type: a.type as AttributeQuestion["type"],
      choices: a.type === "multiple-choice" ? (a.choices ?? []) : [],
    }));
}
