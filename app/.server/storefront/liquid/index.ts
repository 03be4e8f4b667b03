import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Drop, Liquid, defaultOperators, type Operators } from "liquidjs";
import { registerShopifyFilters, LOCALE_GLOBAL } from "./filters";
import { registerShopifyTags } from "./tags";
import { loadTranslations } from "./translations";
import { readBlockSchema, settingsWithDefaults, type BlockSchema } from "./schema";

export {
  productDrop,
  appDrop,
  metafieldsDrop,
  parseMetafieldValue,
  type RawMetafield,
  type ProductInput,
} from "./drops";

// The theme app extension's Liquid rendered outside Shopify: by the local storefront (whole blocks)
// and by the app proxy (fragments from the extension's own snippets, so a later page of reviews is
// drawn by the same Liquid as the first). liquidjs, set up to behave like Shopify's Liquid where the
// blocks depend on it: Ruby truthiness (only nil and false are falsy), isolated `render` scopes with
// the page's objects as globals, no output escaping, unknown filters refused.

// `assign x = nil` holds liquidjs's null object, which it does not count as blank; Shopify does
// (`nil == blank`). Compare it as a missing value.
const asMissing = (v: unknown) =>
  v instanceof Drop && typeof v.valueOf === "function" && v.valueOf() === null ? undefined : v;
const operators: Operators = {
  ...defaultOperators,
  "==": function* (l: unknown, r: unknown) {
    return yield* (defaultOperators["=="] as (l: unknown, r: unknown) => Generator<unknown, boolean, unknown>)(
      asMissing(l),
      asMissing(r),
    );
  },
  "!=": function* (l: unknown, r: unknown) {
    return yield* (defaultOperators["!="] as (l: unknown, r: unknown) => Generator<unknown, boolean, unknown>)(
      asMissing(l),
      asMissing(r),
    );
  },
};

export interface BlockContext {
  product?: unknown;
  shop?: unknown;
  customer?: unknown;
  /** Customer order pages (customers/order). */
  order?: unknown;
  request?: { design_mode?: boolean; locale?: { iso_code: string }; [k: string]: unknown };
  block: { id: string; settings?: Record<string, unknown> };
  app?: unknown;
  /** Shopify's `routes` (root_url, account_url, ...) for the page's language. */
  routes?: unknown;
}

export interface ThemeRendererOptions {
  /** The extension's folder (blocks/, snippets/, assets/, locales/). */
  extensionDir: string;
  /** Where the storefront serves the extension's assets/, without a trailing slash. */
  assetBaseUrl: string;
  /** Time zone of `| date` (Shopify uses the shop's). Default UTC. */
  timezone?: string;
  /** Keep parsed templates (true in production paths; tests that edit files pass false). */
  cache?: boolean;
  /**
   * Put the block schema's stylesheet and javascript around the block's HTML, as Shopify loads them
   * for a block on the page. Default true; a page that puts them in <head> itself passes false.
   */
  injectAssets?: boolean;
}

export interface ThemeRenderer {
  renderBlock(handle: string, ctx: BlockContext, locale: string): Promise<string>;
  renderSnippet(name: string, vars: Record<string, unknown>, locale: string): Promise<string>;
  /** The block's schema (settings, javascript, stylesheet). */
  blockSchema(handle: string): BlockSchema;
  /** URL of an asset of the extension, as `| asset_url` gives it. */
  assetUrl(name: string): string;
  /** Storefront locales the extension has (file names without .json / .default.json). */
  locales: string[];
}

export function createThemeRenderer(opts: ThemeRendererOptions): ThemeRenderer {
  const { extensionDir } = opts;
  const translations = loadTranslations(join(extensionDir, "locales"));
  const versions = new Map<string, string>();
  const assetUrl = (name: string) => {
    const file = join(extensionDir, "assets", name);
    let v = versions.get(name);
    if (v === undefined && existsSync(file)) {
      v = createHash("sha256").update(readFileSync(file)).digest("hex").slice(0, 10);
      if (opts.cache !== false) versions.set(name, v);
    }
    return `${opts.assetBaseUrl}/${encodeURIComponent(name)}${v ? `?v=${v}` : ""}`;
  };

  const liquid = new Liquid({
    root: [join(extensionDir, "snippets")],
    partials: [join(extensionDir, "snippets")],
    extname: ".liquid",
    relativeReference: false,
    cache: opts.cache ?? true,
    strictFilters: true,
    jsTruthy: false,
    ownPropertyOnly: true,
    // A zone name makes liquidjs work the offset out again for every date; UTC is a plain 0.
    timezoneOffset: !opts.timezone || opts.timezone === "UTC" ? 0 : opts.timezone,
    operators,
  });
  registerShopifyFilters(liquid, { translations, assetUrl });
  registerShopifyTags(liquid);

  const schemas = new Map<string, BlockSchema>();
  const blockSchema = (handle: string) => {
    let s = schemas.get(handle);
    if (!s) {
      s = readBlockSchema(blockFile(extensionDir, handle));
      if (opts.cache !== false) schemas.set(handle, s);
    }
    return s;
  };

  // Blocks live beside snippets/, outside the partials root that `render` may reach.
  const blockTemplates = new Map<string, ReturnType<Liquid["parse"]>>();
  const blockTemplate = (handle: string) => {
    let t = blockTemplates.get(handle);
    if (!t) {
      const file = blockFile(extensionDir, handle);
      t = liquid.parse(readFileSync(file, "utf8"), file);
      if (opts.cache !== false) blockTemplates.set(handle, t);
    }
    return t;
  };

  return {
    locales: translations.locales,
    assetUrl,
    blockSchema,

    async renderBlock(handle, ctx, locale) {
      const schema = blockSchema(handle);
      const designMode = ctx.request?.design_mode === true;
      const iso = translations.resolve(locale);
      const block = {
        id: ctx.block.id,
        type: `shopify://apps/reviews/blocks/${handle}/${ctx.block.id}`,
        settings: settingsWithDefaults(schema, ctx.block.settings),
        shopify_attributes: designMode ? `data-shopify-editor-block="${ctx.block.id}"` : "",
      };
      const request = {
        design_mode: false,
        page_type: "product",
        ...ctx.request,
        locale: { iso_code: locale, ...ctx.request?.locale },
      };
      const globals = {
        product: ctx.product,
        shop: ctx.shop,
        customer: ctx.customer,
        order: ctx.order,
        request,
        app: ctx.app,
        routes: ctx.routes,
        [LOCALE_GLOBAL]: iso,
      };
      const template = blockTemplate(handle);
      // Every filter and tag here is synchronous: the synchronous renderer avoids a promise per step.
      const html = liquid.renderSync(template, { block }, { globals });
      if (opts.injectAssets === false) return html;
      const css = schema.stylesheet ? `<link rel="stylesheet" href="${assetUrl(schema.stylesheet)}" media="all">` : "";
      const js = schema.javascript ? `<script src="${assetUrl(schema.javascript)}" defer></script>` : "";
      return css + html + js;
    },

    async renderSnippet(name, vars, locale) {
      if (!/^[a-z0-9][a-z0-9_-]*$/.test(name)) throw new Error(`invalid snippet name ${JSON.stringify(name)}`);
      const template = liquid.parseFileSync(name);
      const globals = {
        request: { design_mode: false, locale: { iso_code: locale } },
        [LOCALE_GLOBAL]: translations.resolve(locale),
      };
      return liquid.renderSync(template, vars, { globals });
    },
  };
}

function blockFile(extensionDir: string, handle: string) {
  if (!/^[a-z0-9][a-z0-9_-]*$/.test(handle)) throw new Error(`invalid block handle ${JSON.stringify(handle)}`);
  return join(extensionDir, "blocks", `${handle}.liquid`);
}
