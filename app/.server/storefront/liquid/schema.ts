import { readFileSync } from "node:fs";

// The `{% schema %}` of a block, read from its file: the theme editor's settings with their defaults
// (a block placed but never edited renders with these) and the assets Shopify loads for it.

export interface BlockSchema {
  name: string;
  target?: string;
  javascript?: string;
  stylesheet?: string;
  settings: Array<{ id?: string; type: string; default?: unknown }>;
}

export function readBlockSchema(file: string): BlockSchema {
  const source = readFileSync(file, "utf8");
  const m = /\{%-?\s*schema\s*-?%\}([\s\S]*?)\{%-?\s*endschema\s*-?%\}/.exec(source);
  if (!m) throw new Error(`${file}: no {% schema %}`);
  const schema = JSON.parse(m[1]) as BlockSchema;
  schema.settings ??= [];
  return schema;
}

/** The settings a block renders with: the schema's defaults, then what the merchant chose. */
export function settingsWithDefaults(
  schema: BlockSchema,
  chosen: Record<string, unknown> = {},
): Record<string, unknown> {
  const settings: Record<string, unknown> = {};
  for (const s of schema.settings) if (s.id) settings[s.id] = s.default ?? (s.type === "checkbox" ? false : null);
  for (const [k, v] of Object.entries(chosen)) if (v !== undefined) settings[k] = v;
  return settings;
}
