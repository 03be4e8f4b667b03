import type { Liquid } from "liquidjs";
import type { Translations } from "./translations";
import { formatMoney } from "./money";

// The Shopify filters the extension's Liquid uses, and the standard ones where liquidjs answers
// differently from Shopify's Liquid. Kept to what the blocks need: an unknown filter is an error
// (strictFilters), so a block cannot quietly depend on something rendered only on Shopify.

/** Where the `t` filter finds the shopper's locale: a global set by the renderer for each render. */
export const LOCALE_GLOBAL = "__locale";

const JSON_UNSAFE: Record<string, string> = {
  "<": "\\u003c",
  ">": "\\u003e",
  "&": "\\u0026",
  "\u2028": "\\u2028",
  "\u2029": "\\u2029",
};

export function registerShopifyFilters(
  liquid: Liquid,
  opts: { translations: Translations; assetUrl: (name: string) => string },
) {
  const { translations } = opts;

  liquid.registerFilter(
    "t",
    function (this: { context: { globals: Record<string, unknown> } }, key: unknown, ...args: unknown[]) {
      const vars: Record<string, unknown> = {};
      for (const a of args) if (Array.isArray(a) && typeof a[0] === "string") vars[a[0]] = a[1];
      return translations.translate(this.context.globals[LOCALE_GLOBAL] as string | undefined, String(key), vars);
    },
  );
  // Shopify's alias; the extension uses `t`.
  liquid.registerFilter(
    "translate",
    function (this: { context: { globals: Record<string, unknown> } }, key: unknown, ...args: unknown[]) {
      const vars: Record<string, unknown> = {};
      for (const a of args) if (Array.isArray(a) && typeof a[0] === "string") vars[a[0]] = a[1];
      return translations.translate(this.context.globals[LOCALE_GLOBAL] as string | undefined, String(key), vars);
    },
  );

  // Shopify's `json` encodes <, > and & so its output is safe inside <script> (JSON-LD included).
  liquid.registerFilter("json", (v: unknown) =>
    (JSON.stringify(toPlain(v)) ?? "null").replace(/[<>&\u2028\u2029]/g, (c) => JSON_UNSAFE[c]),
  );

  // Ruby's Hash#size counts keys; liquidjs answers 0 for an object.
  liquid.registerFilter("size", (v: unknown) => {
    if (typeof v === "string" || Array.isArray(v)) return v.length;
    if (v && typeof v === "object") return Object.keys(v).length;
    return 0;
  });

  // Integer divided by integer is floor division in Shopify; liquidjs divides as floats. (A float
  // that happens to be whole, 46.0, is an integer to JavaScript: templates round before dividing.)
  liquid.registerFilter("divided_by", (a: unknown, b: unknown) => {
    const x = Number(a),
      y = Number(b);
    return Number.isInteger(x) && Number.isInteger(y) ? Math.floor(x / y) : x / y;
  });

  // Cents through the shop's money format (`shop.money_format`), as Shopify's filter.
  liquid.registerFilter("money", function (this: { context: { globals: Record<string, unknown> } }, cents: unknown) {
    const shop = this.context.globals.shop as { money_format?: string } | undefined;
    return formatMoney(Number(cents), shop?.money_format);
  });

  liquid.registerFilter("asset_url", (name: unknown) => opts.assetUrl(String(name)));
  liquid.registerFilter(
    "stylesheet_tag",
    (url: unknown) => `<link href="${escapeAttr(String(url))}" rel="stylesheet" type="text/css" media="all" />`,
  );
  liquid.registerFilter(
    "script_tag",
    (url: unknown) => `<script src="${escapeAttr(String(url))}" type="text/javascript"></script>`,
  );
  liquid.registerFilter("handleize", handleize);
  liquid.registerFilter("handle", handleize);
  liquid.registerFilter("url_param_escape", (v: unknown) => encodeURIComponent(String(v ?? "")));
}

function handleize(v: unknown): string {
  return String(v ?? "")
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

function escapeAttr(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function toPlain(v: unknown): unknown {
  if (v && typeof v === "object" && !Array.isArray(v) && typeof (v as { valueOf(): unknown }).valueOf === "function") {
    const p = (v as { valueOf(): unknown }).valueOf();
    if (p !== v) return p;
  }
  return v;
}
