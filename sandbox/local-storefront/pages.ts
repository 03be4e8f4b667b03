import { STOREFRONT_CUSTOMERS } from "../simulated-store/storefront-customers";
import { LOCALES, localePath, str, type Locale } from "./strings";
import type { ShopMoney, StoreProduct } from "./store-reader";
import { type ShopOrder, formatMoney } from "../../app/.server/storefront";

// A minimal theme layout of our own (the blocks need a page to sit in, not a copy of Dawn): a header
// with the language and "log in as" switches, then the template. Everything shopper-visible is
// escaped here; the blocks' HTML comes from the Liquid engine as Shopify would place it.

export const esc = (v: unknown) =>
  String(v ?? "").replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );

export interface LocalCustomer {
  id: string;
  firstName: string;
  lastName: string;
}

/** The simulated store's storefront accounts (it answers the app's e-mail read for them). */
export const LOCAL_CUSTOMERS: LocalCustomer[] = STOREFRONT_CUSTOMERS.map(({ id, firstName, lastName }) => ({
  id,
  firstName,
  lastName,
}));

export interface PageFrame {
  locale: Locale;
  shopName: string;
  /** Path of this page without the locale prefix (for the language links). */
  path: string;
  customer: LocalCustomer | null;
  title: string;
  head?: string;
  /** The app embeds switched on, placed at the end of the body as Shopify places them. */
  bodyEnd?: string;
}

const CSS = `
*,*::before,*::after{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#fff}
a{color:#1f4fa3}
.skip{position:absolute;left:-9999px}.skip:focus{left:1rem;top:1rem;background:#fff;padding:.5rem;z-index:10}
.site-header{border-bottom:1px solid #ddd;padding:.75rem 1rem;display:flex;flex-wrap:wrap;gap:.75rem 1.5rem;align-items:center;justify-content:space-between}
.site-header__name{font-weight:700;font-size:1.25rem;text-decoration:none;color:#1a1a1a}
.site-header nav ul{list-style:none;margin:0;padding:0;display:flex;gap:1rem;flex-wrap:wrap}
.site-header nav a{display:inline-block;min-height:24px;padding:2px 0}
.site-tools{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;font-size:.875rem}
.site-tools form{display:flex;gap:.25rem;align-items:center}
.site-tools select,.site-tools button{font:inherit;min-height:32px}
main{max-width:1100px;margin:0 auto;padding:1rem}
.product{display:grid;gap:1.5rem}
@media (min-width:750px){.product{grid-template-columns:1fr 1fr}}
.product__media img{width:100%;height:auto;aspect-ratio:1/1;display:block;background:#eee}
.product__title{font-size:1.75rem;line-height:1.2;margin:0 0 .25rem}
.product__price{font-size:1.25rem;margin:.5rem 0}
.product__cart{font:inherit;padding:.75rem 1.5rem;background:#1a1a1a;color:#fff;border:0;min-height:44px}
.product__description{margin-top:1rem}
.product-reviews{margin-top:2rem}
.grid{list-style:none;padding:0;display:grid;gap:1rem;grid-template-columns:repeat(auto-fill,minmax(160px,1fr))}
.card img{width:100%;height:auto;aspect-ratio:1/1;display:block;background:#eee}
.card__title{font-size:1rem;margin:.5rem 0 .25rem}
.orders{border-collapse:collapse;margin:0 0 1rem}.orders th,.orders td{text-align:start;padding:.375rem 1.5rem .375rem 0;border-bottom:1px solid #ddd}
.site-footer{border-top:1px solid #ddd;padding:1rem;font-size:.875rem;color:#555;text-align:center}
`;

export function layout(frame: PageFrame, content: string): string {
  const { locale } = frame;
  const languages = LOCALES.map(
    (l) =>
      `<li><a href="${esc(localePath(l, frame.path))}" hreflang="${l}" lang="${l}"${l === locale ? ' aria-current="true"' : ""}>${l === "en" ? "English" : l === "pt-BR" ? "Português" : "Español"}</a></li>`,
  ).join("");
  const options = [`<option value="">${esc(str(locale, "loggedOut"))}</option>`]
    .concat(
      LOCAL_CUSTOMERS.map(
        (c) =>
          `<option value="${c.id}"${frame.customer?.id === c.id ? " selected" : ""}>${esc(`${c.firstName} ${c.lastName}`)}</option>`,
      ),
    )
    .join("");
  return `<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(frame.title)} – ${esc(frame.shopName)}</title>
<meta name="description" content="${esc(frame.title)}">
<link rel="icon" href="data:,">
<style>${CSS}</style>
${frame.head ?? ""}
</head>
<body>
<a class="skip" href="#main">${esc(str(locale, "skip"))}</a>
<header class="site-header">
  <a class="site-header__name" href="${esc(localePath(locale, "/"))}">${esc(frame.shopName)}</a>
  <nav aria-label="${esc(str(locale, "catalog"))}"><ul><li><a href="${esc(localePath(locale, "/collections/all"))}">${esc(str(locale, "catalog"))}</a></li><li><a href="${esc(localePath(locale, "/pages/store-reviews"))}">${esc(str(locale, "storeReviews"))}</a></li><li><a href="${esc(localePath(locale, "/account"))}">${esc(str(locale, "account"))}</a></li></ul></nav>
  <div class="site-tools">
    <nav aria-label="${esc(str(locale, "language"))}"><ul>${languages}</ul></nav>
    <form method="get" action="/account/login-as">
      <label for="login-as">${esc(str(locale, "logIn"))}</label>
      <select id="login-as" name="customer">${options}</select>
      <input type="hidden" name="return" value="${esc(localePath(locale, frame.path))}">
      <button type="submit">${esc(str(locale, "apply"))}</button>
    </form>
  </div>
</header>
<main id="main">
${content}
</main>
<footer class="site-footer">${esc(str(locale, "footer"))}</footer>
${frame.bodyEnd ?? ""}
</body>
</html>`;
}

const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  "#39": "'",
  apos: "'",
  nbsp: " ",
  mdash: "—",
  ndash: "–",
  rsquo: "’",
  lsquo: "‘",
  rdquo: "”",
  ldquo: "“",
  hellip: "…",
};
const numericEntity = (name: string) => {
  const n = /^#x[0-9a-f]+$/i.test(name)
    ? parseInt(name.slice(2), 16)
    : /^#\d+$/.test(name)
      ? Number(name.slice(1))
      : NaN;
  return Number.isInteger(n) && n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : undefined;
};
const plainText = (html: string) =>
  html
    .replace(/<[^>]*>/g, " ")
    .replace(/&(#?\w+);/g, (m, name: string) => ENTITIES[name] ?? numericEntity(name) ?? m)
    .replace(/\s+/g, " ")
    .trim();

// As a theme prints `product.price | money`: the price in cents through the shop's money format.
const money = (price: string | null, shop: ShopMoney) =>
  price === null ? "" : formatMoney(Math.round(Number(price) * 100), shop.format);
export const productImagePath = (p: StoreProduct) =>
  `/images/products/${encodeURIComponent(p.id)}.svg?t=${encodeURIComponent(p.title)}`;

/** The theme's own Product node: the reviews block attaches its AggregateRating and Reviews to it by `@id`. */
export function productJsonLd(p: StoreProduct, shopUrl: string, currencyCode: string): string {
  const url = `${shopUrl}/products/${p.handle}`;
  const node = {
    "@context": "https://schema.org",
    "@type": "Product",
    "@id": `${url}#product`,
    name: p.title,
    url,
    image: `${shopUrl}${productImagePath(p)}`,
    description: plainText(p.descriptionHtml),
    sku: p.id,
    brand: { "@type": "Brand", name: p.vendor },
    ...(p.price !== null
      ? {
          offers: {
            "@type": "Offer",
            price: p.price,
            priceCurrency: currencyCode,
            availability: "https://schema.org/InStock",
            url,
          },
        }
      : {}),
  };
  return `<script type="application/ld+json">${JSON.stringify(node).replace(/</g, "\\u003c")}</script>`;
}

export function productPage(
  p: StoreProduct,
  locale: Locale,
  blocks: { stars: string; reviews: string; questions?: string; topRated?: string },
  shop: ShopMoney,
): string {
  return `<div class="product">
  <div class="product__media"><img src="${esc(productImagePath(p))}" alt="${esc(p.title)}" width="600" height="600"></div>
  <div class="product__info">
    <h1 class="product__title">${esc(p.title)}</h1>
    ${blocks.stars}${blocks.topRated ?? ""}
    <p class="product__price">${esc(money(p.price, shop))}</p>
    <button class="product__cart" type="button">${esc(str(locale, "addToCart"))}</button>
    <div class="product__description">${p.descriptionHtml}</div>
  </div>
</div>
<section class="product-reviews">
${blocks.reviews}
</section>${blocks.questions ? `\n<section class="product-questions">\n${blocks.questions}\n</section>` : ""}`;
}

/** The store's reviews page: what a merchant builds with the store blocks (badge, carousel, list). */
export function storeReviewsPage(locale: Locale, blocks: { badge: string; carousel: string; list: string }): string {
  return `<h1>${esc(str(locale, "storeReviews"))}</h1>
${blocks.badge}
${blocks.carousel}
${blocks.list}`;
}

export function collectionPage(
  locale: Locale,
  cards: { product: StoreProduct; stars: string }[],
  top: string,
  shop: ShopMoney,
): string {
  const items = cards
    .map(
      ({ product: p, stars }) => `<li class="card">
  <a href="${esc(localePath(locale, `/products/${p.handle}`))}"><img src="${esc(productImagePath(p))}" alt="${esc(p.title)}" width="300" height="300" loading="lazy"></a>
  <h2 class="card__title"><a href="${esc(localePath(locale, `/products/${p.handle}`))}">${esc(p.title)}</a></h2>
  ${stars}
  <p>${esc(money(p.price, shop))}</p>
</li>`,
    )
    .join("\n");
  return `<h1>${esc(str(locale, "products"))}</h1>\n${top}<ul class="grid" role="list">\n${items}\n</ul>`;
}

/** A placeholder picture per product (the simulated store's image URLs are on Shopify's CDN, out of reach offline). */
export function productImageSvg(id: string, title: string): string {
  let h = 0;
  for (const c of id) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  const hue = h % 360;
  const initials = title
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0])
    .join("")
    .toUpperCase();
  return `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="600" viewBox="0 0 600 600"><rect width="600" height="600" fill="hsl(${hue},35%,82%)"/><circle cx="300" cy="270" r="150" fill="hsl(${hue},35%,68%)"/><text x="300" y="320" font-family="sans-serif" font-size="140" text-anchor="middle" fill="hsl(${hue},40%,25%)">${esc(initials)}</text></svg>`;
}

/** A date as the shopper's language writes it (a theme's `| date: format`), not ISO. */
const day = (iso: string, locale: Locale) =>
  new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" }).format(new Date(iso));

/**
 * The classic account page: the customer, their order history (as Shopify's template lists it), then the app's block.
 */
export function accountPage(
  locale: Locale,
  customer: LocalCustomer | null,
  orders: ShopOrder[],
  block: string,
): string {
  if (!customer) return `<h1>${esc(str(locale, "account"))}</h1>\n<p>${esc(str(locale, "accountLogin"))}</p>`;
  const rows = orders
    .map(
      (o) =>
        `<tr><td><a href="${esc(localePath(locale, `/account/orders/${o.id}`))}">${esc(o.name)}</a></td><td><time datetime="${esc(o.processedAt)}">${esc(day(o.processedAt, locale))}</time></td></tr>`,
    )
    .join("");
  const history = orders.length
    ? `<table class="orders"><thead><tr><th scope="col">${esc(str(locale, "orderCol"))}</th><th scope="col">${esc(str(locale, "dateCol"))}</th></tr></thead><tbody>${rows}</tbody></table>`
    : `<p>${esc(str(locale, "noOrders"))}</p>`;
  return `<h1>${esc(str(locale, "account"))}</h1>
<p>${esc(`${customer.firstName} ${customer.lastName}`)}</p>
<h2>${esc(str(locale, "orderHistory"))}</h2>
${history}
${block}`;
}

/** The classic order page: the order's number, date and lines, then the app's block for that order. */
export function orderPage(locale: Locale, order: ShopOrder, block: string): string {
  const lines = order.lines
    .map(
      (l) =>
        `<li>${l.handle ? `<a href="${esc(localePath(locale, `/products/${l.handle}`))}">${esc(l.title)}</a>` : esc(l.title)}</li>`,
    )
    .join("");
  return `<p><a href="${esc(localePath(locale, "/account"))}">${esc(str(locale, "backToAccount"))}</a></p>
<h1>${esc(order.name)}</h1>
<p><time datetime="${esc(order.processedAt)}">${esc(day(order.processedAt, locale))}</time></p>
<ul>${lines}</ul>
${block}`;
}
