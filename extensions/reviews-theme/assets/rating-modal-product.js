/*
 * The rating modal's parts fetched on its first opening (rating-modal.js loads this module with the
 * stylesheet, so the page pays nothing for them before): the app proxy's pre-check, the panel for a
 * product reviewed already, and the product line (the product's image, or a placeholder, beside its
 * title, under the dialog's title; the box keeps its 48 px whatever arrives).
 */
const PLACEHOLDER =
  '<svg class="rv-modal__placeholder" viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false"><path fill="none" stroke="currentColor" stroke-width="1.5" stroke-linejoin="round" d="M4 5h16v14H4zM4 16l5-5 4 4 2-2 5 5M15.5 9.5a1.5 1.5 0 1 0 0-.01"/></svg>';

// The app proxy's pre-check: Shopify's order name and product titles and images, which products the
// buyer reviewed already and, for those, the panel in the page's language. null: open as before.
export async function check(modal, order, token, sku) {
  const q = new URLSearchParams({ order, token });
  if (sku) q.set('sku', sku);
  if (modal.dataset.locale) q.set('locale', modal.dataset.locale);
  try {
    const response = await fetch(`${(modal.dataset.proxy || '/apps/reviews').replace(/\/$/, '')}/rate-check?${q}`, { headers: { Accept: 'application/json' }, signal: AbortSignal.timeout(5000) });
    return response.ok ? await response.json() : null;
  } catch {
    return null;
  }
}

// The product line and, for a product reviewed already, the panel in place of the frame (true).
// Shopify's title and image when it knows the order; what the button or link gave otherwise. A
// rating page focused on the product names it itself, so the line stays empty then (the product once).
export function prepare(modal, info, { sku, product, image }) {
  const dialog = modal.dialog;
  const item = info?.products.find((p) => p.sku === sku) || (info?.products.length === 1 ? info.products[0] : null);
  const known = info?.name ? item : null;
  const framed = !info?.reviewed && sku && item;
  showProduct(dialog, framed ? '' : known ? known.title : product, known ? known.image : image);
  dialog.querySelector('[data-rv-modal-done]')?.remove();
  dialog.removeAttribute('aria-describedby');
  if (!info?.reviewed || !info.html) return false;
  const t = document.createElement('template');
  t.innerHTML = info.html;
  const panel = t.content.firstElementChild;
  const link = panel.querySelector('[data-rv-link]');
  if (link) link.href = link.dataset.rvLink === 'account' ? modal.dataset.accountUrl : `${modal.dataset.root.replace(/\/$/, '')}${link.getAttribute('href')}`;
  dialog.querySelector('iframe').before(panel);
  dialog.setAttribute('aria-describedby', panel.id);
  return true;
}

export function showProduct(dialog, title, image) {
  let line = dialog.querySelector('[data-rv-modal-product]');
  if (!line) {
    line = document.createElement('div');
    line.className = 'rv-modal__product';
    line.dataset.rvModalProduct = '';
    line.innerHTML = `<span class="rv-modal__media">${PLACEHOLDER}</span><p class="rv-modal__product-name"></p>`;
    dialog.querySelector('.rv-modal__bar').after(line);
  }
  line.hidden = !title;
  line.querySelector('.rv-modal__product-name').textContent = title || '';
  const media = line.querySelector('.rv-modal__media');
  media.querySelector('img')?.remove();
  media.classList.remove('rv-modal__media--image');
  const src = title && imageUrl(image);
  if (!src) return;
  // In view as soon as the dialog shows, so not lazy.
  const img = Object.assign(document.createElement('img'), { src, alt: title, width: 48, height: 48, decoding: 'async' });
  img.addEventListener('error', () => {
    img.remove();
    media.classList.remove('rv-modal__media--image');
  });
  media.classList.add('rv-modal__media--image');
  media.append(img);
}

// A link can carry any address: only Shopify's image CDN or this store's own, asked at twice the
// box's size (Shopify's CDN resizes on `width`).
function imageUrl(value) {
  if (!value) return '';
  let url;
  try {
    url = new URL(value, location.href);
  } catch {
    return '';
  }
  if (url.origin === 'https://cdn.shopify.com') url.searchParams.set('width', '96');
  else if (url.origin !== location.origin) return '';
  return url.href;
}
