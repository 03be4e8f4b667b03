// <rating-modal>: see blocks/rating-modal.liquid.
if (!customElements.get('rating-modal')) {
  class RatingModal extends HTMLElement {
    connectedCallback() {
      this.origin = new URL(this.dataset.rateUrl).origin;
      document.addEventListener('click', this);
      window.addEventListener('message', this);
      const url = new URL(location.href);
      const keys = ['order', 'token', 'sku', 'name', 'product', 'image', 'rating'];
      const link = Object.fromEntries(keys.map((k) => [k, url.searchParams.get(k === 'rating' ? 'rv-rating' : `rv-rate-${k}`)]));
      if (link.order && link.token) {
        keys.forEach((k) => url.searchParams.delete(k === 'rating' ? 'rv-rating' : `rv-rate-${k}`));
        history.replaceState(history.state, '', url);
        this.open(link);
      }
    }

    disconnectedCallback() {
      document.removeEventListener('click', this);
      window.removeEventListener('message', this);
    }

    handleEvent(event) {
      if (event.type === 'message') return this.onMessage(event);
      if (event.type === 'close') return this.closed();
      if (event.target === this.dialog) return this.dialog.close(); // the backdrop
      if (event.target.closest?.('[data-rv-modal-close]')) return this.dialog.close();
      const button = event.target.closest?.('[data-rv-rate-order][data-rv-rate-token]');
      if (!button) return;
      event.preventDefault();
      const d = button.dataset;
      this.open({ order: d.rvRateOrder, token: d.rvRateToken, sku: d.rvRateSku, rating: d.rvRating, name: d.rvRateName, product: d.rvRateProduct, image: d.rvRateImage });
    }

    async open({ order, token, sku, rating, name, product, image }) {
      // On the first opening, before the dialog shows (it works without the module's parts).
      RatingModal.css ??= new Promise((resolve) => {
        const link = Object.assign(document.createElement('link'), { rel: 'stylesheet', href: this.dataset.css, onload: resolve, onerror: resolve });
        document.head.append(link);
      });
      RatingModal.product ??= import(this.dataset.product).catch(() => null);
      const [, parts] = await Promise.all([RatingModal.css, RatingModal.product]);
      const info = await parts?.check(this, order, token, sku);
      if (!this.dialog) {
        this.append(this.querySelector('template').content.cloneNode(true));
        this.dialog = this.querySelector('dialog');
        this.dialog.addEventListener('close', this);
        this.dialog.addEventListener('click', this);
      }
      if (this.dialog.open) return;
      this.returnTo = document.activeElement;
      this.rating = { order, sku };
      this.querySelector('[data-rv-modal-thanks]').textContent = '';
      // Shopify's name for the order; else the link's, or the service's id when the shop sends names.
      const title = this.dialog.querySelector('#rv-modal-title');
      title.dataset.text ??= title.textContent;
      const shown = info?.name || name || (/^\d+$/.test(order) ? '' : order);
      title.textContent = shown ? title.dataset.orderText.replace('%NAME%', () => shown) : title.dataset.text;
      const frame = this.dialog.querySelector('iframe');
      // Reviewed already: the module shows our own panel instead of the service's page.
      frame.hidden = !!parts?.prepare(this, info, { sku, product, image });
      if (!frame.hidden) {
        const src = new URL(`${this.dataset.rateUrl}/rate/${encodeURIComponent(this.dataset.customer)}/${encodeURIComponent(token)}/${encodeURIComponent(order)}`);
        src.searchParams.set('embedded', '1');
        src.searchParams.set('source', 'store');
        if (sku) src.searchParams.set('sku', sku);
        if (/^[1-5]$/.test(rating || '')) src.searchParams.set('ratingClicked', rating);
        frame.src = src.href;
      }
      document.documentElement.classList.add('rv-modal-open');
      this.dialog.showModal();
    }

    onMessage(event) {
      const frame = this.dialog?.querySelector('iframe');
      if (!this.dialog?.open || event.origin !== this.origin || event.source !== frame?.contentWindow || event.data?.type !== 'review-sent') return;
      this.sent = true;
      this.dialog.close();
    }

    closed() {
      document.documentElement.classList.remove('rv-modal-open');
      const frame = this.dialog.querySelector('iframe');
      if (!frame.hidden) frame.src = 'about:blank';
      if (this.sent) {
        const thanks = this.querySelector('[data-rv-modal-thanks]');
        thanks.textContent = thanks.dataset.text;
        setTimeout(() => (thanks.textContent = ''), 6000);
        // Blocks that show what was rated (the order reviews block) refresh on it.
        document.dispatchEvent(new CustomEvent('rv:review-sent', { detail: this.rating }));
      }
      this.sent = false;
      this.returnTo?.focus?.();
    }
  }
  customElements.define('rating-modal', RatingModal);
}
