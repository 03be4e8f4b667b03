/*
 * <store-reviews>: the store reviews block. The list is asked of the app proxy when the block nears
 * the screen (into space kept for it), and again when the shopper sorts or changes page; the page
 * arrives as server-rendered HTML and is swapped in. Every word comes from the block's Liquid.
 */
if (!customElements.get('store-reviews')) {
  class StoreReviews extends HTMLElement {
    connectedCallback() {
      this.state = { sort: 'newest', page: 1 };
      this.addEventListener('click', this);
      this.addEventListener('change', this);
      if (this.hasAttribute('data-rv-sample')) return;
      this.observer = new IntersectionObserver((entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        this.observer.disconnect();
        this.load({}, false);
      }, { rootMargin: '600px 0px' });
      this.observer.observe(this);
    }

    disconnectedCallback() {
      this.observer?.disconnect();
      this.controller?.abort();
    }

    handleEvent(event) {
      if (event.type === 'change' && event.target.matches('[data-rv-sr-sort]')) return this.load({ sort: event.target.value, page: 1 }, false);
      const button = event.target.closest?.('button');
      if (!button || !this.contains(button)) return;
      if (button.dataset.rvGoto) this.load({ page: Number(button.dataset.rvGoto) }, true);
      else if ('rvRetry' in button.dataset) this.load({}, true);
    }

    async load(change, moveFocus) {
      Object.assign(this.state, change);
      const slot = this.querySelector('[data-rv-slot]');
      this.controller?.abort();
      const controller = (this.controller = new AbortController());
      slot.style.minHeight = `${slot.offsetHeight}px`;
      slot.setAttribute('aria-busy', 'true');
      const params = new URLSearchParams({ sort: this.state.sort, page: String(this.state.page), pageSize: this.dataset.pageSize || '10' });
      if (this.dataset.locale) params.set('locale', this.dataset.locale);
      let fragment = null;
      try {
        const response = await fetch(`${(this.dataset.proxy || '/apps/reviews').replace(/\/$/, '')}/store-reviews?${params}`, { headers: { Accept: 'text/html' }, signal: controller.signal });
        if (response.ok) {
          const template = document.createElement('template');
          template.innerHTML = await response.text();
          fragment = template.content.querySelector('[data-rv-page]');
        }
      } catch {
        if (controller.signal.aborted) return;
      }
      if (!fragment) fragment = this.querySelector('[data-rv-error-template]').content.firstElementChild.cloneNode(true);
      slot.replaceChildren(fragment);
      slot.removeAttribute('aria-busy');
      slot.style.minHeight = '';
      const status = fragment.querySelector('[data-rv-page-status]');
      this.querySelector('[data-rv-live]').textContent = (status || fragment).textContent.trim();
      if (moveFocus) {
        (fragment.matches('[data-rv-error]') ? fragment.querySelector('[data-rv-retry]') : status)?.focus({ preventScroll: true });
        if (slot.getBoundingClientRect().top < 0) slot.scrollIntoView({ block: 'start' });
      }
    }
  }
  customElements.define('store-reviews', StoreReviews);
}
