// The rating page: `{rate_url}/rate/{customer}/{verificationTokenId}/{orderId}`.
//
// A small self-contained HTML page (no external assets) with one star form per reviewable product of
// the order. Submitting POSTs `{verificationTokenId, orderId, rating, text, source}` to the Client
// API review endpoint (same origin), so a review sent here is verified and stored like any other.
// Query: `sku` shows only that product (with a link to the others), `ratingClicked` preselects a
// rating 1–5, `embedded=1` uses a compact layout and, after each successful submission, calls
// `window.parent.postMessage({ type: "review-sent", sku, orderId }, "*")`; `source` is passed on as
// the review's `source` (default `web`). Unknown customer/token/order: a 404 page.
import type { Reply } from "./http";
import type { Route } from "./router";
import type { Ctx, Services } from "./services";
import { orderByToken } from "./client-orders";
import { itemProductSku, reviewableItems } from "./orders.rules";

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/** JSON that is safe inside a <script> element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

const STYLE = `
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1a1a1a;background:#f6f6f7}
main{max-width:640px;margin:0 auto;padding:24px}body.embedded main{padding:12px}
h1{font-size:1.4rem;margin:0 0 16px}ul{list-style:none;margin:0;padding:0}
.product{background:#fff;border:1px solid #ddd;border-radius:8px;padding:16px;margin:0 0 16px;display:grid;grid-template-columns:72px 1fr;gap:12px}
.product img,.product .ph{width:72px;height:72px;object-fit:cover;border-radius:4px;background:#eee}
.product h2{font-size:1rem;margin:0 0 8px}
fieldset{border:0;padding:0;margin:0 0 8px;display:flex;flex-direction:row-reverse;justify-content:flex-end}
legend{padding:0;margin-bottom:4px}
.stars input{position:absolute;opacity:0;width:1px;height:1px}
.stars label{font-size:1.8rem;color:#ccc;cursor:pointer;padding:0 2px}
.stars input:checked~label,.stars label:hover,.stars label:hover~label{color:#e6a700}
.stars input:focus-visible+label{outline:2px solid #005bd3}
textarea{width:100%;min-height:80px;font:inherit;padding:8px}
button{margin-top:8px;font:inherit;padding:8px 16px;border:0;border-radius:6px;background:#1a1a1a;color:#fff;cursor:pointer}
.status{min-height:1.5em;margin:4px 0 0}.done{color:#0a7d33}.error{color:#b00020}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}`;

function page(title: string, body: string, embedded: boolean): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body${embedded ? ' class="embedded"' : ""}>
<main>
${body}
</main>
</body>
</html>`;
}

function notFoundPage(embedded: boolean): Reply {
  return {
    status: 404,
    html: page("Order not found", `<h1>Order not found</h1><p>This rating link is not valid.</p>`, embedded),
  };
}

function stars(sku: string, preselected: number | undefined): string {
  const id = (n: number) => `r-${escapeHtml(sku)}-${n}`;
  // Reversed DOM order so the CSS sibling selector can light up the lower stars.
  return [5, 4, 3, 2, 1]
    .map(
      (n) =>
        `<input type="radio" name="rating" value="${n}" id="${id(n)}"${n === preselected ? " checked" : ""} required>` +
        `<label for="${id(n)}" title="${n} star${n > 1 ? "s" : ""}">★<span class="visually-hidden">${n} star${n > 1 ? "s" : ""}</span></label>`,
    )
    .join("");
}

function ratePage(ctx: Ctx): Reply {
  const q = ctx.query;
  const embedded = q.get("embedded") === "1";
  const { customer, verificationTokenId, orderId } = ctx.params;
  const { store, auth } = ctx.services;
  if (!store.has(customer) && !auth.customers().has(customer)) return notFoundPage(embedded);
  const cs = store.customer(customer);
  const order = orderByToken(cs, verificationTokenId, orderId);
  if (!order) return notFoundPage(embedded);

  const ratingRaw = Number(q.get("ratingClicked"));
  const preselected = Number.isInteger(ratingRaw) && ratingRaw >= 1 && ratingRaw <= 5 ? ratingRaw : undefined;
  const focus = q.get("sku") ?? undefined;
  const items = reviewableItems(order);
  const focused = focus !== undefined && items.some((i) => itemProductSku(i) === focus);
  const shown = focused ? items.filter((i) => itemProductSku(i) === focus) : items;

  const list = shown
    .map((item) => {
      const sku = itemProductSku(item);
      const product = cs.products.get(sku);
      const name = product?.name ?? item.productData?.name ?? item.productData?.productName ?? item.skuName ?? sku;
      const image = product?.image ?? item.productData?.image;
      const review = cs.reviewsOf(sku).find((r) => r.orderId === order.orderId);
      const img = image
        ? `<img src="${escapeHtml(image)}" alt="" width="72" height="72" loading="lazy">`
        : `<img alt="" width="72" height="72" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">`;
      const content = review
        ? `<p class="done">Already reviewed: ${"★".repeat(review.rating)}${"☆".repeat(5 - review.rating)}</p>`
        : `<form class="rate" data-sku="${escapeHtml(sku)}">
<fieldset class="stars"><legend>Your rating</legend>${stars(sku, preselected)}</fieldset>
<label for="t-${escapeHtml(sku)}">Your review (optional)</label>
<textarea id="t-${escapeHtml(sku)}" name="text" maxlength="5000"></textarea>
<button type="submit">Send review</button>
<p class="status" role="status" aria-live="polite"></p>
</form>`;
      return `<li class="product" data-sku="${escapeHtml(sku)}">${img}<div><h2>${escapeHtml(name)}</h2>${content}</div></li>`;
    })
    .join("\n");

  const others = focused
    ? (() => {
        const u = new URL(`${ctx.services.urls.rateUrl}${ctx.path}`);
        for (const [k, v] of q) if (k !== "sku" && k !== "ratingClicked") u.searchParams.append(k, v);
        return `<p><a href="${escapeHtml(u.pathname + u.search)}">Rate the other products of this order</a></p>`;
      })()
    : "";

  const config = {
    endpoint: `${new URL(ctx.services.urls.baseUrl).pathname}/${encodeURIComponent(customer)}`,
    verificationTokenId,
    orderId,
    source: q.get("source") || "web",
  };
  // The postMessage call is only emitted in embedded mode: a standalone page has no parent to tell.
  const notify = embedded
    ? `window.parent.postMessage({ type: "review-sent", sku: sku, orderId: config.orderId }, "*");`
    : "";
  const script = `<script>
(function () {
  var config = ${scriptJson(config)};
  // A product image that does not load (a store's CDN out of reach) leaves the grey box, not a broken icon.
  document.querySelectorAll(".product img").forEach(function (img) {
    function hold() { var box = document.createElement("span"); box.className = "ph"; img.replaceWith(box); }
    img.addEventListener("error", hold);
    if (img.complete && img.naturalWidth === 0) hold();
  });
  document.querySelectorAll("form.rate").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var sku = form.getAttribute("data-sku");
      var status = form.querySelector(".status");
      var data = new FormData(form);
      var rating = Number(data.get("rating"));
      if (!rating) { status.textContent = "Choose a rating."; status.className = "status error"; return; }
      var button = form.querySelector("button");
      button.disabled = true;
      fetch(config.endpoint + "/" + encodeURIComponent(sku) + "/review", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          verificationTokenId: config.verificationTokenId,
          orderId: config.orderId,
          rating: rating,
          text: String(data.get("text") || ""),
          source: config.source
        })
      }).then(function (res) {
        if (!res.ok) return res.json().catch(function () { return {}; }).then(function (body) { throw new Error(body.message || ("HTTP " + res.status)); });
        var done = document.createElement("p");
        done.className = "done";
        done.setAttribute("role", "status");
        done.textContent = "Thank you! Your review was sent.";
        form.replaceWith(done);
        ${notify}
      }).catch(function (err) {
        button.disabled = false;
        status.textContent = "Could not send your review: " + err.message;
        status.className = "status error";
      });
    });
  });
})();
</script>`;

  // Embedded, the host's modal names the order as its buyer knows it: no second heading here.
  const body = `${embedded ? "" : `<h1>Rate your order ${escapeHtml(order.orderId)}</h1>`}
${items.length ? `<ul role="list">\n${list}\n</ul>` : "<p>There is nothing to rate in this order.</p>"}
${others}
${script}`;
  return { status: 200, html: page(embedded ? "Rate your order" : `Rate your order ${order.orderId}`, body, embedded) };
}

export const ratePageRoutes: Route<Services>[] = [
  { method: "GET", pattern: "/rate/:customer/:verificationTokenId/:orderId", auth: "none", handler: ratePage },
];
