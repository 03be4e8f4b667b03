/*
 * <order-reviews>: a logged-in customer's orders with what they rated ("rate your order"). The
 * customer's status never sits in the page's HTML: it is asked of the app proxy (which reads who is
 * logged in from Shopify's signature) as soon as the element connects, and the server-rendered
 * answer is swapped into space kept for it. "More orders" appends the next 20; a review sent in the
 * rating modal (`rv:review-sent`) reloads what is shown, so the new stars appear.
 */
if (!customElements.get('order-reviews')) {
  class OrderReviews extends HTMLElement {
    connectedCallback() {
      this.addEventListener('click', this);
      if (this.hasAttribute('data-rv-sample')) return;
      // The Rate link that was pressed goes with the reload: focus moves to the new status line.
      this.onSent = () => this.load(null, true);
      document.addEventListener('rv:review-sent', this.onSent);
      this.load(null, false);
    }

    disconnectedCallback() {
      document.removeEventListener('rv:review-sent', this.onSent);
      this.controller?.abort();
    }

    handleEvent(event) {
      const button = event.target.closest?.('button');
      if (!button || !this.contains(button)) return;
      if ('rvMore' in button.dataset) this.load(button.closest('[data-rv-page]')?.dataset.next, true);
      else if ('rvRetry' in button.dataset) this.load(null, true);
    }

    async fetchPage(after) {
      const params = new URLSearchParams();
      if (this.dataset.order) params.set('order', this.dataset.order);
      if (after) params.set('after', after);
      if (this.dataset.locale) params.set('locale', this.dataset.locale);
      const response = await fetch(`${(this.dataset.proxy || '/apps/reviews').replace(/\/$/, '')}/orders?${params}`, {
        headers: { Accept: 'text/html' },
        signal: this.controller.signal,
      });
      if (!response.ok) return null;
      const template = document.createElement('template');
      template.innerHTML = await response.text();
      return template.content.querySelector('[data-rv-page]');
    }

    /** `after`: append the page after that cursor; otherwise (re)load from the first page. */
    async load(after, moveFocus) {
      const slot = this.querySelector('[data-rv-slot]');
      this.controller?.abort();
      this.controller = new AbortController();
      const { signal } = this.controller;
      slot.style.minHeight = `${slot.offsetHeight}px`;
      slot.setAttribute('aria-busy', 'true');
      let fragment = null;
      try {
        fragment = await this.fetchPage(after);
      } catch {
        if (signal.aborted) return;
      }
      if (signal.aborted) return;
      const error = !fragment;
      if (error) fragment = this.querySelector('[data-rv-error-template]').content.firstElementChild.cloneNode(true);
      if (after && !error) {
        const page = slot.querySelector('[data-rv-page]');
        const added = [...(fragment.querySelector('.rv-or-list')?.children || [])];
        page.querySelector('.rv-or-list')?.append(...added);
        page.querySelector('[data-rv-more]')?.remove();
        const button = fragment.querySelector('[data-rv-more]');
        if (button) page.append(button);
        page.dataset.next = fragment.dataset.next || '';
        // The next order is where the shopper goes on reading.
        if (moveFocus) added[0]?.querySelector('h3')?.focus();
      } else {
        slot.replaceChildren(fragment);
        const lost = document.activeElement === document.body || !document.activeElement || this.contains(document.activeElement);
        if (moveFocus && lost) (error ? fragment.querySelector('[data-rv-retry]') : fragment.querySelector('[data-rv-page-status]'))?.focus({ preventScroll: true });
      }
      slot.removeAttribute('aria-busy');
      slot.style.minHeight = '';
      const status = slot.querySelector('[data-rv-page-status]');
      this.querySelector('[data-rv-live]').textContent = (error ? fragment : status || fragment).textContent.trim();
    }
  }
  customElements.define('order-reviews', OrderReviews);
}
