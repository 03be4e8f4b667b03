import {
  parseShopperFields,
  plainText,
  textError,
  type FieldError,
  type ShopperFields,
} from "../writes/shopper-fields";

// What the "ask a question" form may send. Identity is not part of it: a logged-in shopper is the
// app proxy's signed customer; a guest names an order (or, when the merchant allows it, an e-mail).

export const QUESTION_TEXT_MAX = 1_000;
const QUESTION_TEXT_MIN = 5;

export interface QuestionInput extends ShopperFields {
  text: string;
}

export function parseQuestionInput(
  body: unknown,
): { ok: true; input: QuestionInput } | { ok: false; errors: Record<string, FieldError> } {
  const b = (body && typeof body === "object" ? body : {}) as Record<string, unknown>;
  const errors: Record<string, FieldError> = {};
  const text = plainText(b.text);
  if (text.length < QUESTION_TEXT_MIN) errors.text = "required";
  else {
    const problem = textError(text, QUESTION_TEXT_MAX);
    if (problem) errors.text = problem;
  }
  const input: QuestionInput = { text, ...parseShopperFields(b, errors) };
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, input };
}
