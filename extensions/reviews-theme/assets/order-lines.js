/*
 * <order-lines>: one order's products in the "rate your orders" history, which shows each order's
 * first few (one Shopify query a page). "Show all N products" asks the app proxy for that order's
 * page (server-rendered, one query for the order) and swaps its whole list in place of the first
 * few: the products already shown stay where they are, the rest come below them, where the button
 * was, and focus goes to the first product that was not shown. A failure says so beside the
 * button, which stays to try again.
 */
if (!customElements.get('order-lines')) {
  class OrderLines extends HTMLElement {
    connectedCallback() {
      this.addEventListener('click', this);
    }

    disconnectedCallback() {
      this.controller?.abort();
    }

    handleEvent(event) {
      const button = event.target.closest?.('[data-rv-all]');
      if (button && this.contains(button) && !this.controller) this.showAll(button);
    }

    async fetchList() {
      const host = this.closest('order-reviews');
      const params = new URLSearchParams({ order: this.dataset.order });
      if (host?.dataset.locale) params.set('locale', host.dataset.locale);
      const response = await fetch(`${(host?.dataset.proxy || '/apps/reviews').replace(/\/$/, '')}/orders?${params}`, {
        headers: { Accept: 'text/html' },
        signal: this.controller.signal,
      });
      if (!response.ok) return null;
      const template = document.createElement('template');
      template.innerHTML = await response.text();
      return template.content.querySelector(`#rv-order-${CSS.escape(this.dataset.order)} .rv-or-items`);
    }

    async showAll(button) {
      this.controller = new AbortController();
      const { signal } = this.controller;
      const error = this.querySelector('[data-rv-lines-error]');
      button.setAttribute('aria-disabled', 'true');
      this.setAttribute('aria-busy', 'true');
      let list = null;
      try {
        list = await this.fetchList();
      } catch {
        if (signal.aborted) return;
      }
      this.controller = null;
      this.removeAttribute('aria-busy');
      button.removeAttribute('aria-disabled');
      if (!list) {
        if (error) error.hidden = false;
        return;
      }
      const current = this.querySelector('.rv-or-items');
      const shown = current.children.length;
      current.replaceWith(list);
      error?.remove();
      button.remove();
      const next = list.children[shown]?.querySelector('a[href], button') || this.closest('li')?.querySelector('h3');
      next?.focus();
    }
  }
  customElements.define('order-lines', OrderLines);
}
