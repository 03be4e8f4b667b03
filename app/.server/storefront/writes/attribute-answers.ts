import type { AttributesBody } from "../../reviews";
import type { AttributeQuestion } from "./available-attributes";

// A shopper's answers to the attribute questions, checked against the questions they were asked:
// stars 1 to 5, or the index of one of the choices (sent with the choice's text, as the service
// wants it). Unknown attributes and out-of-range values are refused, not dropped.

export type AnswersResult =
  { ok: true; attributes: AttributesBody["attributes"] } | { ok: false; error: "invalid" | "empty" };

export function parseAttributeAnswers(body: unknown, asked: AttributeQuestion[]): AnswersResult {
  const list = (body as { attributes?: unknown } | null)?.attributes;
  if (!Array.isArray(list)) return { ok: false, error: "invalid" };
  if (list.length === 0) return { ok: false, error: "empty" };
  const out: AttributesBody["attributes"] = [];
  const seen = new Set<string>();
  for (const item of list) {
    const { id, value } = (item ?? {}) as { id?: unknown; value?: unknown };
    const q = asked.find((a) => a.id === id);
    if (!q || seen.has(q.id) || typeof value !== "number" || !Number.isInteger(value))
      return { ok: false, error: "invalid" };
    seen.add(q.id);
    if (q.type === "stars") {
      if (value < 1 || value > 5) return { ok: false, error: "invalid" };
      out.push({ _id: q.id, value });
    } else {
      if (value < 0 || value >= q.choices.length) return { ok: false, error: "invalid" };
      out.push({ _id: q.id, value, response: q.choices[value] });
    }
  }
  return { ok: true, attributes: out };
}
