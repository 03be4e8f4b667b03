import type { OperationHandler, OperationResult, StoreModule } from "./router";

// Metaobjects of standard definitions, as a development store with the app's test access answers:
// - `standardMetaobjectDefinitionEnable` switches a standard definition on from its template. The
//   product review definition is restricted: a store whose app is not granted it (outside Shopify's
//   review syndication program) answers NOT_AUTHORIZED; a type without a template RECORD_NOT_FOUND;
//   one already on TAKEN.
// - `metaobjectUpsert` refuses a type whose definition is not on (UNDEFINED_OBJECT_TYPE), checks
//   each field against the definition (unknown key, value of the wrong type, required field missing
//   on create), and creates or updates the metaobject of one handle. An empty value clears a field.
// - `metaobjectByHandle`, `metaobjectDelete` (RECORD_NOT_FOUND when gone) and
//   `metaobjectDefinitionByType` (with `metaobjectsCount`).
// Costs as Shopify computes them for these documents: 10 points a mutation, 1 a single-object read.

export interface MetaobjectFieldTemplate {
  key: string;
  type: string;
  required?: true;
}

/** Shopify's standard product review definition: its fields and their types. */
export const PRODUCT_REVIEW_TEMPLATE: MetaobjectFieldTemplate[] = [
  { key: "rating", type: "rating", required: true },
  { key: "title", type: "single_line_text_field" },
  { key: "body", type: "multi_line_text_field" },
  { key: "submitted_at", type: "date_time", required: true },
  { key: "edited_at", type: "date_time" },
  { key: "published_at", type: "date_time" },
  { key: "source", type: "single_line_text_field", required: true },
  { key: "author", type: "customer_reference" },
  { key: "author_display_name", type: "single_line_text_field" },
  { key: "order", type: "order_reference" },
  { key: "product", type: "product_reference" },
  { key: "product_variant", type: "variant_reference" },
  { key: "merchant_reply", type: "multi_line_text_field" },
  { key: "merchant_replied_at", type: "date_time" },
  { key: "media_urls", type: "list.url" },
  { key: "language", type: "single_line_text_field" },
];

const TEMPLATES: Record<string, { name: string; restricted: boolean; fields: MetaobjectFieldTemplate[] }> = {
  product_review: { name: "Product review", restricted: true, fields: PRODUCT_REVIEW_TEMPLATE },
};

export interface StoredMetaobject {
  id: string;
  type: string;
  handle: string;
  fields: Record<string, string>;
  createdAt: string;
  updatedAt: string;
}

interface UserError {
  field: string[];
  message: string;
  code: string;
  elementKey?: string;
}

const HANDLE = /^[a-z0-9][a-z0-9-]*$/;
const REFERENCE: Record<string, RegExp> = {
  customer_reference: /^gid:\/\/shopify\/Customer\/\d+$/,
  order_reference: /^gid:\/\/shopify\/Order\/\d+$/,
  product_reference: /^gid:\/\/shopify\/Product\/\d+$/,
  variant_reference: /^gid:\/\/shopify\/ProductVariant\/\d+$/,
};

function isUrl(v: unknown): boolean {
  if (typeof v !== "string") return false;
  try {
    const u = new URL(v);
    return u.protocol === "https:" || u.protocol === "http:";
  } catch {
    return false;
  }
}

/** Why Shopify would refuse this value for this type, or null. */
function valueProblem(type: string, value: string): string | null {
  if (REFERENCE[type]) return REFERENCE[type].test(value) ? null : "Value must be a valid reference.";
  switch (type) {
    case "date_time":
      return /^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value))
        ? null
        : "Value must be in ISO 8601 date and time format.";
    case "rating": {
      try {
        const r = JSON.parse(value) as { value?: unknown; scale_min?: unknown; scale_max?: unknown };
        const [v, lo, hi] = [r.value, r.scale_min, r.scale_max].map(Number);
        if ([v, lo, hi].some((n) => !Number.isFinite(n))) return "Value must have value, scale_min and scale_max.";
        return v >= lo && v <= hi ? null : "Value must be within the scale.";
      } catch {
        return "Value must be valid JSON.";
      }
    }
    case "list.url": {
      try {
        const list = JSON.parse(value) as unknown;
        return Array.isArray(list) && list.every(isUrl) ? null : "Value must be a list of URLs.";
      } catch {
        return "Value must be valid JSON.";
      }
    }
    case "single_line_text_field":
      return value.includes("\n") ? "Value must be a single line of text." : null;
    default:
      return null;
  }
}

export class MetaobjectStore {
  private readonly definitions = new Map<string, { id: string; type: string }>();
  private readonly objects = new Map<string, StoredMetaobject>();
  private readonly granted: Set<string>;
  private nextId = 1;

  constructor(
    granted: readonly string[] = ["product_review"],
    private readonly now: () => Date = () => new Date(),
  ) {
    this.granted = new Set(granted);
  }

  /** Test control: the app is (or is no longer) granted a restricted standard definition. */
  grant(type: string, on: boolean): void {
    if (on) this.granted.add(type);
    else this.granted.delete(type);
  }

  /** Test control: the merchant deletes the definition in the Shopify admin, and its metaobjects with it. */
  deleteDefinition(type: string): void {
    this.definitions.delete(type);
    for (const [k, o] of this.objects) if (o.type === type) this.objects.delete(k);
  }

  enabled(type: string): boolean {
    return this.definitions.has(type);
  }

  list(type: string): StoredMetaobject[] {
    return [...this.objects.values()].filter((o) => o.type === type);
  }

  byHandle(type: string, handle: string): StoredMetaobject | null {
    return this.objects.get(`${type}/${handle}`) ?? null;
  }

  enableStandard(type: unknown): { definition: { id: string; type: string } | null; userErrors: UserError[] } {
    const t = String(type);
    const template = TEMPLATES[t];
    const refuse = (code: string, message: string) => ({
      definition: null,
      userErrors: [{ field: ["type"], message, code }],
    });
    if (!template) return refuse("RECORD_NOT_FOUND", "A standard definition wasn't found for the specified type.");
    if (template.restricted && !this.granted.has(t))
      return refuse("NOT_AUTHORIZED", "The app is not authorized to enable this standard definition.");
    if (this.definitions.has(t)) return refuse("TAKEN", "Type is already in use by a definition.");
    const definition = { id: `gid://shopify/MetaobjectDefinition/${2_200_000 + this.definitions.size}`, type: t };
    this.definitions.set(t, definition);
    return { definition, userErrors: [] };
  }

  upsert(handleInput: unknown, input: unknown): { metaobject: StoredMetaobject | null; userErrors: UserError[] } {
    const h = (handleInput ?? {}) as { type?: unknown; handle?: unknown };
    const type = String(h.type ?? "");
    const handle = String(h.handle ?? "");
    const refuse = (errors: UserError[]) => ({ metaobject: null, userErrors: errors });
    const template = TEMPLATES[type];
    if (!this.definitions.has(type) || !template)
      return refuse([
        {
          field: ["handle", "type"],
          message: "No metaobject definition exists for type.",
          code: "UNDEFINED_OBJECT_TYPE",
        },
      ]);
    if (!HANDLE.test(handle) || handle.length > 255)
      return refuse([{ field: ["handle", "handle"], message: "Handle is invalid.", code: "URL_HANDLE_INVALID" }]);
    const fields = ((input ?? {}) as { fields?: unknown }).fields;
    const given = Array.isArray(fields) ? (fields as { key?: unknown; value?: unknown }[]) : [];
    const errors: UserError[] = [];
    const seen = new Set<string>();
    for (const f of given) {
      const key = String(f.key);
      const value = typeof f.value === "string" ? f.value : "";
      const def = template.fields.find((d) => d.key === key);
      if (seen.has(key)) {
        errors.push({
          field: ["metaobject", "fields"],
          message: "Duplicate field.",
          code: "DUPLICATE_FIELD_INPUT",
          elementKey: key,
        });
        continue;
      }
      seen.add(key);
      if (!def) {
        errors.push({
          field: ["metaobject", "fields"],
          message: `No field definition for ${key}.`,
          code: "UNDEFINED_OBJECT_FIELD",
          elementKey: key,
        });
        continue;
      }
      const problem = value === "" ? null : valueProblem(def.type, value);
      if (problem)
        errors.push({ field: ["metaobject", "fields"], message: problem, code: "INVALID_VALUE", elementKey: key });
    }
    const existing = this.byHandle(type, handle);
    const merged: Record<string, string> = { ...(existing?.fields ?? {}) };
    for (const f of given) {
      const value = typeof f.value === "string" ? f.value : "";
      if (value === "") delete merged[String(f.key)];
      else merged[String(f.key)] = value;
    }
    for (const def of template.fields)
      if (def.required && !merged[def.key])
        errors.push({
          field: ["metaobject", "fields"],
          message: `${def.key} is required.`,
          code: "OBJECT_FIELD_REQUIRED",
          elementKey: def.key,
        });
    if (errors.length) return refuse(errors);
    const at = this.now().toISOString();
    const stored: StoredMetaobject = existing
      ? { ...existing, fields: merged, updatedAt: at }
      : {
          id: `gid://shopify/Metaobject/${91_000_000_000 + this.nextId++}`,
          type,
          handle,
          fields: merged,
          createdAt: at,
          updatedAt: at,
        };
    this.objects.set(`${type}/${handle}`, stored);
    return { metaobject: stored, userErrors: [] };
  }

  delete(id: unknown): { deletedId: string | null; userErrors: UserError[] } {
    for (const [k, o] of this.objects) {
      if (o.id === id) {
        this.objects.delete(k);
        return { deletedId: o.id, userErrors: [] };
      }
    }
    return { deletedId: null, userErrors: [{ field: ["id"], message: "Record not found", code: "RECORD_NOT_FOUND" }] };
  }
}

export function metaobjectsModule(store: MetaobjectStore): StoreModule {
  const mutation = (handle: (v: Record<string, unknown>) => OperationResult): OperationHandler => ({
    handle,
  });
  const read = (handle: (v: Record<string, unknown>) => OperationResult): OperationHandler => ({
    handle,
  });
  const out = (o: StoredMetaobject) => ({ id: o.id, handle: o.handle, updatedAt: o.updatedAt });
  return {
    name: "metaobjects",
    operations: {
      StandardMetaobjectDefinitionEnable: mutation((v) => {
        const r = store.enableStandard(v.type);
        return {
          data: {
            standardMetaobjectDefinitionEnable: { metaobjectDefinition: r.definition, userErrors: r.userErrors },
          },
        };
      }),
      MetaobjectDefinitionByType: read((v) => {
        const type = String(v.type);
        const on = store.enabled(type);
        return {
          data: {
            metaobjectDefinitionByType: on
              ? { id: `gid://shopify/MetaobjectDefinition/${type}`, type, metaobjectsCount: store.list(type).length }
              : null,
          },
        };
      }),
      MetaobjectUpsert: mutation((v) => {
        const r = store.upsert(v.handle, v.metaobject);
        return {
          data: { metaobjectUpsert: { metaobject: r.metaobject && out(r.metaobject), userErrors: r.userErrors } },
        };
      }),
      MetaobjectByHandle: read((v) => {
        const h = (v.handle ?? {}) as { type?: unknown; handle?: unknown };
        const o = store.byHandle(String(h.type), String(h.handle));
        return { data: { metaobjectByHandle: o ? { id: o.id, handle: o.handle } : null } };
      }),
      MetaobjectDelete: mutation((v) => ({ data: { metaobjectDelete: store.delete(v.id) } })),
    },
  };
}
