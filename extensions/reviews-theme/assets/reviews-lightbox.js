/*
 * <reviews-lightbox>: the photos and video of one review in a modal dialog, loaded by reviews.js the
 * first time a shopper opens one. The dialog's markup (translated labels) is server-rendered in the
 * block. Focus stays inside while it is open, Escape closes it, and focus returns to the thumbnail.
 */
if (!customElements.get('reviews-lightbox')) {
  class ReviewsLightbox extends HTMLElement {
    connectedCallback() {
      this.dialog = this.querySelector('dialog');
      this.stage = this.querySelector('[data-rv-lightbox-stage]');
      this.dialog.addEventListener('click', (event) => this.onClick(event));
      this.dialog.addEventListener('keydown', (event) => this.onKey(event));
      this.dialog.addEventListener('close', () => this.onClose());
    }

    open(items, index, opener) {
      this.items = items;
      this.opener = opener;
      this.querySelectorAll('[data-rv-lightbox-step]').forEach((b) => (b.hidden = items.length < 2));
      this.show(index);
      this.dialog.showModal();
      this.querySelector('[data-rv-lightbox-close]').focus();
    }

    show(index) {
      const count = this.items.length;
      this.index = (index + count) % count;
      const link = this.items[this.index];
      let media;
      if (link.dataset.rvMedia === 'video') {
        media = Object.assign(document.createElement('video'), { src: link.href, controls: true, playsInline: true, preload: 'metadata' });
        media.setAttribute('aria-label', link.textContent.trim());
      } else {
        media = Object.assign(document.createElement('img'), { src: link.href, alt: link.querySelector('img')?.alt || '' });
      }
      this.stage.replaceChildren(media);
      const template = this.querySelector('[data-rv-lightbox-position-template]').textContent;
      this.querySelector('[data-rv-lightbox-position]').textContent = count > 1 ? template.replace('{index}', this.index + 1).replace('{total}', count) : '';
    }

    onClick(event) {
      if (event.target === this.dialog || event.target.closest('[data-rv-lightbox-close]')) return this.dialog.close();
      const step = event.target.closest('[data-rv-lightbox-step]');
      if (step) this.show(this.index + Number(step.dataset.rvLightboxStep));
    }

    onKey(event) {
      if (event.key === 'ArrowRight' || event.key === 'ArrowLeft') {
        if (event.target.closest('video')) return;
        this.show(this.index + (event.key === 'ArrowRight' ? 1 : -1));
      } else if (event.key === 'Tab') {
        // Keep focus inside (a modal dialog otherwise lets it out to the browser's own controls).
        const focusable = [...this.dialog.querySelectorAll('button:not([hidden]), video')];
        const first = focusable[0];
        const last = focusable[focusable.length - 1];
        if (event.shiftKey && document.activeElement === first) {
          event.preventDefault();
          last.focus();
        } else if (!event.shiftKey && document.activeElement === last) {
          event.preventDefault();
          first.focus();
        }
      }
    }

    onClose() {
      this.stage.replaceChildren();
      this.opener?.focus();
    }
  }
  customElements.define('reviews-lightbox', ReviewsLightbox);
}
