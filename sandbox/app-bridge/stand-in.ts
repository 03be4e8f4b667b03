// A small stand-in for App Bridge's CDN script (https://cdn.shopify.com/shopifycloud/app-bridge.js),
// for a machine with no Shopify admin around the app: the Chromium tests answer the CDN URL with it,
// and `npm run dev:local` writes it to a file (script-file.ts) that the app serves from
// /local/app-bridge.js (never in production, see app/routes/local.app-bridge[.js].tsx). It
// provides what the app uses of `window.shopify` and, as App Bridge does, adds the session token to
// the app's own fetch calls (Remix data requests and form posts rely on it). Its elements render in
// a shadow root around the app's light DOM children, so React's hydration sees the markup it
// rendered.
//
// Its `resourcePicker` (products only) lists the shop's products as the app's product mirror holds
// them (GET /app/products) in a native modal dialog, and answers as App Bridge does: the chosen
// products (`id` as a gid, `title`, `handle`, `images[].originalSrc`, `variants`), or undefined
// when cancelled. Its few words are English: it stands in for Shopify's own, translated, picker.
//
// The token: `window.__SESSION_TOKEN__` (set by a test's init script), else the `id_token` of the
// URL the page was opened with (kept for the tab in sessionStorage).
//
// `shopify.app.extensions()` answers as App Bridge documents it, for our theme app extension only:
// `window.__APP_EXTENSIONS__` (a test's init script) or the URL's `app-extensions` parameter picks
// the answer: "added" (every block and the embed on), "available" (nothing added: the default),
// "error" (the call rejects), "unsupported" (no `shopify.app`), "pending" (never answers), or a
// list to answer as it is. Built with `themeFrom` (dev:local: the local storefront's
// THEME_BLOCKS_PATH), the default is "storefront": the blocks and embed that storefront renders are
// on, read at each call, so the setup guide's theme step completes in the offline demo as it does
// once a merchant adds them to a real theme. A storefront out of reach rejects, as App Bridge would.

import { THEME_BLOCKS, THEME_EMBED, THEME_EXTENSION } from "../../app/shared/theme-blocks";

export type StandInExtensions = "added" | "available" | "storefront" | "error" | "unsupported" | "pending" | unknown[];

const THEME_ID = "gid://shopify/OnlineStoreTheme/1";
const BLOCK_NAMES: Record<string, string> = {
  [THEME_BLOCKS.starRating]: "Star rating",
  [THEME_BLOCKS.reviews]: "Product reviews",
  [THEME_BLOCKS.orderReviews]: "Rate your orders",
};

/** The answer App Bridge gives for our theme app extension, with the given blocks/embed on. */
export function standInExtensionsAnswer(on: readonly string[]): unknown[] {
  const block = (handle: string, template: string) => ({
    handle,
    name: BLOCK_NAMES[handle] ?? handle,
    target: "section",
    status: on.includes(handle) ? "active" : "available",
    activations: on.includes(handle)
      ? [{ target: `template--${template}/main/${handle.replace(/-/g, "_")}_AbC123`, themeId: THEME_ID }]
      : [],
  });
  return [
    {
      handle: THEME_EXTENSION,
      type: "theme_app_extension",
      activations: [
        block(THEME_BLOCKS.starRating, "product"),
        block(THEME_BLOCKS.reviews, "product"),
        block(THEME_BLOCKS.orderReviews, "customers/account"),
        {
          handle: THEME_EMBED,
          name: "Rating modal",
          target: "body",
          status: on.includes(THEME_EMBED) ? "active" : "available",
          activations: on.includes(THEME_EMBED) ? [{ target: "body", themeId: THEME_ID }] : [],
        },
      ],
    },
  ];
}

export function appBridgeStandIn(opts: { themeFrom?: string } = {}): string {
  const answers = {
    added: standInExtensionsAnswer([
      THEME_BLOCKS.starRating,
      THEME_BLOCKS.reviews,
      THEME_BLOCKS.orderReviews,
      THEME_EMBED,
    ]),
    available: standInExtensionsAnswer([]),
  };
  return `(() => {
  if (window.shopify) return;
  const KEY = "app-bridge-stand-in:id_token";
  const fromUrl = new URLSearchParams(location.search).get("id_token");
  if (fromUrl) sessionStorage.setItem(KEY, fromUrl);
  const token = () => window.__SESSION_TOKEN__ || sessionStorage.getItem(KEY) || "";
  const script = document.currentScript;
  const params = new URLSearchParams(location.search);

  const originalFetch = window.fetch.bind(window);
  window.fetch = (input, init) => {
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url, location.href);
    if (url.origin !== location.origin) return originalFetch(input, init);
    const headers = new Headers(init && init.headers ? init.headers : input instanceof Request ? input.headers : undefined);
    if (!headers.has("Authorization") && token()) headers.set("Authorization", "Bearer " + token());
    return originalFetch(input, { ...(init || {}), headers });
  };

  const region = document.createElement("div");
  region.setAttribute("role", "status");
  region.setAttribute("aria-live", "polite");
  region.id = "app-bridge-stand-in-toasts";
  region.style.cssText = "position:fixed;left:50%;bottom:24px;transform:translateX(-50%);z-index:1000;display:flex;flex-direction:column;gap:8px;";
  const attach = () => document.body && !region.isConnected && document.body.appendChild(region);

  const el = (tag, props, ...children) => {
    const node = Object.assign(document.createElement(tag), props || {});
    node.append(...children.filter((c) => c !== null && c !== undefined));
    return node;
  };
  async function resourcePicker(options) {
    if (!options || options.type !== "product") throw new Error("the App Bridge stand-in picks products only");
    const multiple = options.multiple !== false && options.multiple !== undefined && options.multiple !== 0;
    const chosen = new Set((options.selectionIds || []).map((s) => s.id));
    const res = await window.fetch("/app/products");
    const listed = res.ok ? (await res.json()).products : [];
    const products = listed.map((p) => ({
      id: "gid://shopify/Product/" + p.productId,
      title: p.title || p.key,
      handle: p.key,
      images: p.image ? [{ id: "gid://shopify/ProductImage/" + p.productId, originalSrc: p.image, altText: "" }] : [],
      variants: [],
    }));
    return new Promise((resolve) => {
      const titleId = "app-bridge-stand-in-picker-title";
      const list = el("ul", { style: "list-style:none;margin:0;padding:0;max-height:60vh;overflow:auto" });
      for (const p of products) {
        const input = el("input", { type: multiple ? "checkbox" : "radio", name: "resource", value: p.id, checked: chosen.has(p.id) });
        input.style.cssText = "width:18px;height:18px;margin:0";
        const image = p.images[0]
          ? el("img", { src: p.images[0].originalSrc, alt: "", width: 40, height: 40, style: "object-fit:cover;border-radius:6px;background:#f1f1f1" })
          : el("span", { style: "width:40px;height:40px;border-radius:6px;background:#f1f1f1;display:inline-block", ariaHidden: "true" });
        const words = el("span", { style: "display:flex;flex-direction:column;min-width:0" }, el("span", { textContent: p.title }), el("small", { textContent: p.handle, style: "color:#616161" }));
        list.append(el("li", {}, el("label", { style: "display:flex;gap:12px;align-items:center;padding:8px 4px;border-bottom:1px solid #ebebeb;cursor:pointer" }, input, image, words)));
      }
      const cancel = el("button", { type: "button", textContent: "Cancel", style: "font:inherit;padding:6px 14px;border-radius:8px;border:1px solid #c9c9c9;background:#fff;cursor:pointer" });
      const select = el("button", { type: "submit", value: "select", textContent: "Select", style: "font:inherit;padding:6px 14px;border-radius:8px;border:0;background:#303030;color:#fff;cursor:pointer" });
      const form = el(
        "form",
        { method: "dialog" },
        el("h2", { id: titleId, textContent: multiple ? "Select products" : "Select a product", style: "font-size:16px;margin:0 0 12px" }),
        products.length ? el("fieldset", { style: "border:0;margin:0;padding:0" }, el("legend", { textContent: "Products", style: "position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)" }), list) : el("p", { textContent: "No products yet: the catalog has not been sent." }),
        el("div", { style: "display:flex;gap:8px;justify-content:flex-end;margin-top:16px" }, cancel, select),
      );
      const dialog = el("dialog", { id: "app-bridge-stand-in-picker", style: "width:min(560px,calc(100vw - 32px));border:0;border-radius:12px;padding:16px;font:14px/20px system-ui,sans-serif;color:#303030" }, form);
      dialog.setAttribute("aria-labelledby", titleId);
      cancel.addEventListener("click", () => dialog.close(""));
      dialog.addEventListener("close", () => {
        const picked = dialog.returnValue === "select" ? [...form.querySelectorAll("input[name=resource]:checked")].map((i) => products.find((p) => p.id === i.value)) : undefined;
        dialog.remove();
        resolve(picked);
      });
      document.body.append(dialog);
      dialog.showModal();
    });
  }

  const saveBars = new Set();
  window.shopify = {
    ready: Promise.resolve(),
    config: { apiKey: script ? script.getAttribute("data-api-key") : "", shop: params.get("shop"), locale: params.get("locale") || "en" },
    environment: { embedded: true, mobile: false, pos: false },
    origin: location.origin,
    idToken: async () => token(),
    loading: () => {},
    toast: {
      show(message, options) {
        attach();
        const item = document.createElement("div");
        item.textContent = message;
        item.dataset.toast = options && options.isError ? "error" : "info";
        item.style.cssText = "background:" + (options && options.isError ? "#8e1f0b" : "#1a1a1a") + ";color:#fff;padding:10px 16px;border-radius:8px;font:14px/20px system-ui,sans-serif;";
        region.appendChild(item);
        setTimeout(() => item.remove(), (options && options.duration) || 5000);
        return "toast-" + Date.now();
      },
      hide() {},
    },
    saveBar: {
      show: async (id) => document.getElementById(id)?.show(),
      hide: async (id) => document.getElementById(id)?.hide(),
      toggle: async (id) => document.getElementById(id)?.toggle(),
      leaveConfirmation: async () => {},
    },
    modal: {
      show: async (id) => document.getElementById(id)?.show?.(),
      hide: async (id) => document.getElementById(id)?.hide?.(),
      toggle: async (id) => document.getElementById(id)?.toggle?.(),
    },
    resourcePicker,
    webVitals: { onReport: () => {} },
    user: async () => ({ accountAccess: "Account owner" }),
  };
  const themeFrom = ${JSON.stringify(opts.themeFrom ?? "")};
  const extensionsMode = window.__APP_EXTENSIONS__ ?? params.get("app-extensions") ?? (themeFrom ? "storefront" : "available");
  const extensionAnswers = ${JSON.stringify(answers)};
  // Every block and the embed as "added" has them, those the storefront does not render as "available".
  const renderedBy = (on) =>
    extensionAnswers.added.map((ext) => ({
      ...ext,
      activations: ext.activations.map((b) => (on.includes(b.handle) ? b : { ...b, status: "available", activations: [] })),
    }));
  if (extensionsMode !== "unsupported") {
    window.shopify.app = {
      extensions() {
        if (extensionsMode === "pending") return new Promise(() => {});
        if (extensionsMode === "error") return Promise.reject(new Error("app.extensions() failed"));
        if (extensionsMode === "storefront")
          return originalFetch(themeFrom)
            .then((res) => (res.ok ? res.json() : Promise.reject(new Error("the local storefront answered " + res.status))))
            .then((body) => renderedBy(Array.isArray(body && body.on) ? body.on : []));
        const answer = Array.isArray(extensionsMode) ? extensionsMode : extensionAnswers[extensionsMode] || extensionAnswers.available;
        return Promise.resolve(JSON.parse(JSON.stringify(answer)));
      },
    };
  }

  class NavMenu extends HTMLElement {
    connectedCallback() {
      if (this.shadowRoot) return;
      const root = this.attachShadow({ mode: "open" });
      root.innerHTML = '<style>:host{display:block;background:#ebebeb;border-bottom:1px solid #d4d4d4;padding:0 12px;overflow-x:auto}nav{display:flex;gap:4px;min-height:44px;align-items:center;white-space:nowrap}::slotted(a){color:#303030;text-decoration:none;padding:6px 10px;border-radius:8px;font:500 13px/20px system-ui,sans-serif}::slotted(a[aria-current=page]){background:#fff}::slotted(a[rel=home]){font-weight:650}</style><nav aria-label="App"><slot></slot></nav>';
    }
  }
  class SaveBar extends HTMLElement {
    connectedCallback() {
      if (this.shadowRoot) return;
      const root = this.attachShadow({ mode: "open" });
      root.innerHTML = '<style>:host{display:none}:host([data-shown]){display:flex;position:sticky;top:0;z-index:900;gap:8px;align-items:center;justify-content:flex-end;background:#1a1a1a;color:#fff;padding:8px 16px;font:13px/20px system-ui,sans-serif}span{margin-right:auto}::slotted(button){font:600 13px/20px system-ui,sans-serif;border-radius:8px;padding:4px 12px;border:0;cursor:pointer}::slotted(button[variant=primary]){background:#fff;color:#1a1a1a}</style><span>Unsaved changes</span><slot></slot>';
      saveBars.add(this);
    }
    disconnectedCallback() { saveBars.delete(this); }
    show() { this.setAttribute("data-shown", ""); this.dispatchEvent(new Event("show")); }
    hide() { if (!this.hasAttribute("data-shown")) return; this.removeAttribute("data-shown"); this.dispatchEvent(new Event("hide")); }
    toggle() { this.hasAttribute("data-shown") ? this.hide() : this.show(); }
    get showing() { return this.hasAttribute("data-shown"); }
  }
  class Hidden extends HTMLElement {
    connectedCallback() { if (!this.shadowRoot) this.attachShadow({ mode: "open" }); }
  }
  customElements.define("ui-nav-menu", NavMenu);
  customElements.define("ui-save-bar", SaveBar);
  customElements.define("ui-title-bar", Hidden);
  // A class may back one element name only: a second define with it throws.
  customElements.define("ui-modal", class extends Hidden {});
})();
`;
}
