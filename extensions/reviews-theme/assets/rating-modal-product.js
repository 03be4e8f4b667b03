/*
 * The rating modal's product line: the product being rated, its image (or a placeholder) beside its
 * title, under the dialog's title. rating-modal.js loads it with the stylesheet on the first
 * opening, so the page pays nothing for it before. The box keeps its 48 px whatever arrives.
 */
const PLACEHOLDER =
  '<svg class="rv-modal__placeholder" viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false"><path fill="none" stroke="currentColor" stroke-width="1.5" stroke-linejoin="round" d="M4 5h16v14H4zM4 16l5-5 4 4 2-2 5 5M15.5 9.5a1.5 1.5 0 1 0 0-.01"/></svg>';

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
