import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appDrop, createThemeRenderer, productDrop, type ThemeRenderer } from "./index";

// The engine on the points where liquidjs and Shopify's Liquid part ways, proven on a small
// extension of its own (the real extension's blocks are proven in extensions/reviews-theme/test).

let dir: string;
let theme: ThemeRenderer;
const snippet = (name: string, body: string) => writeFileSync(join(dir, "snippets", `${name}.liquid`), body);
const render = (body: string, vars: Record<string, unknown> = {}, locale = "en") => {
  const name = `t${Math.random().toString(36).slice(2)}`;
  snippet(name, body);
  return theme.renderSnippet(name, vars, locale);
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "liquid-engine-"));
  for (const d of ["blocks", "snippets", "assets", "locales"]) mkdirSync(join(dir, d));
  writeFileSync(
    join(dir, "locales", "en.default.json"),
    JSON.stringify({
      stars: {
        label: "{{ rating }} out of {{ max }} stars",
        count: { zero: "No reviews", one: "{{ count }} review", other: "{{ count }} reviews" },
      },
      only_en: "English only",
    }),
  );
  writeFileSync(
    join(dir, "locales", "pt-BR.json"),
    JSON.stringify({
      stars: {
        label: "{{ rating }} de {{ max }} estrelas",
        count: { one: "{{ count }} avaliação", other: "{{ count }} avaliações" },
      },
    }),
  );
  writeFileSync(
    join(dir, "locales", "es.json"),
    JSON.stringify({ stars: { count: { one: "{{ count }} reseña", other: "{{ count }} reseñas" } } }),
  );
  writeFileSync(join(dir, "assets", "a.css"), "p{}");
  writeFileSync(
    join(dir, "blocks", "demo.liquid"),
    `<div {{ block.shopify_attributes }} data-id="{{ block.id }}" data-size="{{ block.settings.size }}" data-show="{{ block.settings.show }}">{% render 'inner', title: product.title %}|{{ request.design_mode }}|{{ product.metafields.reviews.rating.value }}/{{ product.metafields.reviews.rating.value.scale_max }}|{{ product.metafields.reviews.rating_count.value }}|{{ product.metafields["$app:reviews"].snapshot.value.count }}|{{ app.metafields.reviews.shop.value.proxyPath }}</div>
{% schema %}
{ "name": "Demo", "target": "section", "stylesheet": "a.css", "settings": [ { "type": "range", "id": "size", "min": 12, "max": 40, "step": 2, "default": 20, "label": "Size" }, { "type": "checkbox", "id": "show", "default": true, "label": "Show" } ] }
{% endschema %}`,
  );
  snippet(
    "inner",
    "{% doc %}\n  @param {string} title\n{% enddoc %}[{{ title | escape }}]{% if block %}LEAK{% endif %}{% if product %}+{% endif %}",
  );
  theme = createThemeRenderer({ extensionDir: dir, assetBaseUrl: "/ext/assets", cache: false });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("truthiness and emptiness as in Shopify's Liquid", () => {
  it("treats empty strings, empty arrays and 0 as true; nil and false as false", async () => {
    const out = await render(
      "{% if s %}s{% endif %}{% if a %}a{% endif %}{% if z %}z{% endif %}{% if n %}n{% endif %}{% if f %}f{% endif %}{% if missing %}m{% endif %}",
      { s: "", a: [], z: 0, n: null, f: false },
    );
    expect(out).toBe("saz");
  });
  it("compares with empty and blank", async () => {
    expect(
      await render(
        "{% if s == empty %}1{% endif %}{% if a == empty %}2{% endif %}{% if n == blank %}3{% endif %}{% if x != blank %}4{% endif %}",
        { s: "", a: [], n: null, x: "y" },
      ),
    ).toBe("1234");
  });
  it("counts an assigned nil as blank and equal to nil", async () => {
    expect(
      await render(
        "{% assign o = nil %}{% if o == blank %}1{% endif %}{% if o != blank %}2{% endif %}{% if o == nil %}3{% endif %}{% if x == nil %}4{% endif %}{% assign e = '' %}{% if e == blank %}5{% endif %}{% if e == nil %}6{% endif %}",
      ),
    ).toBe("1345");
  });
  it("default replaces nil, false and empty, not 0", async () => {
    expect(
      await render("{{ n | default: 'd' }} {{ s | default: 'd' }} {{ a | default: 'd' }} {{ z | default: 'd' }}", {
        n: null,
        s: "",
        a: [],
        z: 0,
      }),
    ).toBe("d d d 0");
  });
});

describe("size", () => {
  it("counts characters, items and the keys of a hash", async () => {
    expect(
      await render("{{ s | size }} {{ a | size }} {{ h | size }} {{ n | size }} {{ a.size }} {{ s.size }}", {
        s: "héllo",
        a: [1, 2, 3],
        h: { x: 1, y: 2 },
        n: null,
      }),
    ).toBe("5 3 2 0 3 5");
  });
});

describe("numbers", () => {
  it("divides integers by integers as floor division, floats as floats", async () => {
    expect(
      await render(
        "{{ 10 | divided_by: 4 }} {{ 10.0 | divided_by: 4 }} {{ 46 | divided_by: 10 }} {{ 46 | modulo: 10 }}",
      ),
    ).toBe("2 2 4 6");
    expect(await render("{{ x | divided_by: 4 }}", { x: 10.5 })).toBe("2.625");
  });
  it("rounds to an integer or to places", async () => {
    expect(await render("{{ x | times: 10 | round }} {{ y | round: 1 }} {{ y | round }}", { x: 4.6, y: 4.55 })).toBe(
      "46 4.6 5",
    );
  });
  it("prints a whole float without its .0 (unlike Shopify): templates format averages themselves", async () => {
    expect(await render("{{ x }}", { x: 5.0 })).toBe("5");
  });
});

describe("t", () => {
  it("interpolates and falls back to the default locale per key", async () => {
    expect(await render("{{ 'stars.label' | t: rating: 4.6, max: 5 }}", {}, "pt-BR")).toBe("4.6 de 5 estrelas");
    expect(await render("{{ 'stars.label' | t: rating: 4.6, max: 5 }}", {}, "es")).toBe("4.6 out of 5 stars");
    expect(await render("{{ 'only_en' | t }}", {}, "pt-BR")).toBe("English only");
  });
  it("pluralises with the locale's rules and an explicit zero form", async () => {
    const counts = "{% for c in cs %}{{ 'stars.count' | t: count: c }};{% endfor %}";
    expect(await render(counts, { cs: [0, 1, 2, 128] }, "en")).toBe("No reviews;1 review;2 reviews;128 reviews;");
    // pt-BR has no zero form: 0 takes Portuguese's own rule (0 is "one" in pt).
    expect(await render(counts, { cs: [0, 1, 5] }, "pt-BR")).toBe("0 avaliação;1 avaliação;5 avaliações;");
    expect(await render(counts, { cs: [1, 3] }, "es")).toBe("1 reseña;3 reseñas;");
  });
  it("takes the language file for a regional locale and the default for an unknown one", async () => {
    expect(await render("{{ 'stars.count' | t: count: 2 }}", {}, "es-MX")).toBe("2 reseñas");
    expect(await render("{{ 'stars.count' | t: count: 2 }}", {}, "de")).toBe("2 reviews");
  });
  it("renders a missing key the way Shopify does", async () => {
    expect(await render("{{ 'nope.key' | t }}", {}, "pt-BR")).toBe("translation missing: pt-BR.nope.key");
  });
  it("does not escape: templates escape what they interpolate", async () => {
    expect(
      await render(
        "{{ 'stars.label' | t: rating: r, max: 5 }}|{% assign e = r | escape %}{{ 'stars.label' | t: rating: e, max: 5 }}",
        { r: "<b>" },
      ),
    ).toBe("<b> out of 5 stars|&lt;b&gt; out of 5 stars");
  });
});

describe("json", () => {
  it("keeps a script element closed and parses back to the same value", async () => {
    const value = { text: "</script><script>alert(1)</script> & \u2028 'x' \"y\"" };
    const out = await render("{{ v | json }}", { v: value });
    expect(out).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(out)).toEqual(value);
  });
});

describe("tags and filters", () => {
  it("renders doc and schema as nothing, style as a data-shopify style element", async () => {
    expect(
      await render(
        '{% doc %}@param {string} x{% enddoc %}a{% schema %}{"name":"x"}{% endschema %}b{% style %}.x{color:{{ c }}}{% endstyle %}',
        { c: "red" },
      ),
    ).toBe("ab<style data-shopify>.x{color:red}</style>");
  });
  it("refuses a filter Shopify has but the engine does not register", async () => {
    await expect(render("{{ 1 | weight_with_unit }}")).rejects.toThrow(/weight_with_unit/);
  });
  it("prints money in cents through Shopify's default format when no shop format is given", async () => {
    expect(await render("{{ 113465 | money }}")).toBe("$1,134.65");
  });
  it("gives asset URLs a content version", async () => {
    expect(await render("{{ 'a.css' | asset_url }}")).toMatch(/^\/ext\/assets\/a\.css\?v=[0-9a-f]{10}$/);
    expect(await render("{{ 'b c.js' | asset_url }}")).toBe("/ext/assets/b%20c.js");
  });
  it("escapes HTML", async () => {
    expect(await render("{{ s | escape }}", { s: `<img src=x onerror="a('1')">&` })).toBe(
      "&lt;img src=x onerror=&#34;a(&#39;1&#39;)&#34;&gt;&amp;",
    );
  });
});

describe("renderBlock", () => {
  const product = productDrop({
    id: "gid://shopify/Product/42",
    handle: "mug",
    title: "Mug <b>",
    metafields: [
      {
        namespace: "reviews",
        key: "rating",
        type: "rating",
        value: '{"value":"4.5","scale_min":"1.0","scale_max":"5.0"}',
      },
      { namespace: "reviews", key: "rating_count", type: "number_integer", value: "12" },
      { namespace: "app--123--reviews", key: "snapshot", type: "json", value: '{"count":12}' },
      { namespace: "broken", key: "json", type: "json", value: "{not json" },
    ],
  });
  const app = appDrop([{ namespace: "reviews", key: "shop", type: "json", value: '{"proxyPath":"/apps/r"}' }]);

  it("renders with schema defaults, metafield values, the app's data, and snippets that see the page's objects but not the block's variables", async () => {
    const html = await theme.renderBlock("demo", { product, app, block: { id: "b1" } }, "en");
    expect(html).toBe(
      '<link rel="stylesheet" href="/ext/assets/a.css?v=' +
        html.match(/v=([0-9a-f]{10})/)![1] +
        '" media="all"><div  data-id="b1" data-size="20" data-show="true">[Mug &lt;b&gt;]+|false|4.5/5|12|12|/apps/r</div>\n',
    );
  });
  it("takes the merchant's settings over the defaults and marks the block in the theme editor", async () => {
    const html = await theme.renderBlock(
      "demo",
      { product, block: { id: "b2", settings: { size: 32, show: false } }, request: { design_mode: true } },
      "en",
    );
    expect(html).toContain('<div data-shopify-editor-block="b2" data-id="b2" data-size="32" data-show="false">');
    expect(html).toContain("|true|");
  });
  it("refuses handles and snippet names that are not plain names", async () => {
    await expect(theme.renderBlock("../x", { block: { id: "b" } }, "en")).rejects.toThrow(/invalid block handle/);
    await expect(theme.renderSnippet("../blocks/demo", {}, "en")).rejects.toThrow(/invalid snippet name/);
  });
});
