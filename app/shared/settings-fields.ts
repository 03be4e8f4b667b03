import type { UiMessage } from "./messages";

// A setting as the Settings page's form knows it (from settings/settings-paths.ts on the server), and
// the checks the form makes as the merchant types. The server checks again against the schema
// itself before anything is saved.

export type FieldLeaf =
  | { kind: "enum"; values: string[] }
  | { kind: "text"; minLength: number; pattern?: string }
  | { kind: "number"; int: boolean; min: number | null; max: number | null }
  | { kind: "boolean" }
  | { kind: "list"; of: FieldLeaf };

export interface FieldSpec {
  path: string;
  leaf: FieldLeaf;
  nullable: boolean;
  onlyWhen?: string;
}

export type FieldValue = string | boolean;

/** A stored value as the form shows it: lists comma-separated, null as empty. */
export function toFieldValue(value: unknown): FieldValue {
  if (typeof value === "boolean") return value;
  if (value === null || value === undefined) return "";
  if (Array.isArray(value)) return value.join(", ");
  return String(value);
}

function checkLeaf(leaf: FieldLeaf, text: string): UiMessage | null {
  switch (leaf.kind) {
    case "enum":
      return leaf.values.includes(text) ? null : { key: "settings.invalid.enum" };
    case "text":
      if (text.length < leaf.minLength) return { key: "settings.invalid.text" };
      if (leaf.pattern && !new RegExp(leaf.pattern).test(text)) return { key: "settings.invalid.pattern" };
      return null;
    case "number": {
      if (!/^[-+]?\d+$/.test(text.trim())) return { key: "settings.invalid.number" };
      const n = Number(text);
      if ((leaf.min !== null && n < leaf.min) || (leaf.max !== null && n > leaf.max)) {
        return { key: "settings.invalid.range", params: { min: leaf.min ?? "-∞", max: leaf.max ?? "∞" } };
      }
      return null;
    }
    case "boolean":
      return null;
    case "list": {
      const items = text
        .split(",")
        .map((x) => x.trim())
        .filter(Boolean);
      for (const item of items) if (checkLeaf(leaf.of, item)) return checkLeaf(leaf.of, item);
      return null;
    }
  }
}

/** What is wrong with a field's value as typed, or null. */
export function validateField(spec: FieldSpec, value: FieldValue): UiMessage | null {
  if (typeof value === "boolean") return null;
  if (spec.nullable && value.trim() === "") return null;
  return checkLeaf(spec.leaf, value.trim());
}
