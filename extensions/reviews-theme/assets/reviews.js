/*
 * <product-reviews>: the reviews block's enhancement. Everything is already server-rendered; this
 * only runs when the shopper sorts, filters, changes page or opens a photo. It asks the app proxy
 * for the page as server-rendered HTML (the same Liquid snippet as the first page) and swaps it in.
 * No framework, no work at load beyond wiring listeners.
 */
if (!customElements.get('product-reviews')) {
  class ProductReviews extends HTMLElement {
    connectedCallback() {
      this.state = { sort: 'helpfulScore,desc', page: 1, filterMedia: '', hasText: false, verified: false, sourceStore: '', rating: [], topics: [] };
      this.addEventListener('click', this);
      this.addEventListener('change', this);
      this.addEventListener('submit', this);
      if (localStorage.getItem('rv-votes')) this.extras().then((m) => m.showVotes(this));
      if (this.hasAttribute('data-rv-customer') && !this.hasAttribute('data-rv-sample')) this.extras().then((m) => m.askReviewed(this));
      // A review link from an e-mail (`?rv-order=&rv-token=`): reviews-form.js reads and clears it.
      if (/[?&]rv-token=/.test(location.search) && !this.hasAttribute('data-rv-sample')) this.openForm(this.querySelector('[data-rv-write]'), true);
    }

    disconnectedCallback() {
      this.controller?.abort();
      this.watch?.disconnect();
    }


    handleEvent(event) {
      if (event.type === 'submit') return event.preventDefault();
      // The theme editor's sample reviews have nothing behind them to ask for.
      if (this.hasAttribute('data-rv-sample')) return;
      if (event.type === 'change') return this.onChange(event.target);
      const target = event.target.closest('button, a[data-rv-media]');
      if (!target || !this.contains(target) || target.closest('reviews-lightbox')) return;
      const { dataset } = target;
      if (dataset.rvMedia) {
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.button) return;
        event.preventDefault();
        this.openMedia(target);
      } else if (dataset.rvRating) {
        this.toggle(target, 'rating', dataset.rvRating);
      } else if (dataset.rvTopic) {
        this.toggle(target, 'topics', dataset.rvTopic);
      } else if (dataset.rvGoto) {
        this.load({ page: Number(dataset.rvGoto) }, true);
      } else if ('rvRetry' in dataset) {
        this.load({}, true);
      } else if ('rvClear' in dataset) {
        this.clearFilters();
      } else if ('rvWrite' in dataset) {
        this.openForm(target);
      } else if (dataset.rvVote) {
        this.vote(target);
      }
    }

    onChange(control) {
      if (!control.matches('[data-rv-control]')) return;
      const value = control.type === 'checkbox' ? control.checked : control.value;
      this.load({ [control.name]: value, page: 1 });
    }

    toggle(button, key, value) {
      const list = this.state[key];
      const on = !list.includes(value);
      button.setAttribute('aria-pressed', String(on));
      this.load({ [key]: on ? [...list, value] : list.filter((v) => v !== value), page: 1 });
    }

    clearFilters() {
      this.querySelectorAll('[aria-pressed="true"]').forEach((b) => b.setAttribute('aria-pressed', 'false'));
      this.querySelectorAll('[data-rv-control]').forEach((c) => {
        if (c.name === 'sort') return;
        if (c.type === 'checkbox') c.checked = false;
        else c.value = '';
      });
      this.load({ filterMedia: '', hasText: false, verified: false, sourceStore: '', rating: [], topics: [], page: 1 }, true);
    }

    url() {
      const s = this.state;
      const params = new URLSearchParams({ sort: s.sort, page: String(s.page), pageSize: this.dataset.pageSize || '5' });
      if (s.rating.length) params.set('rating', s.rating.join(','));
      if (s.filterMedia) params.set('filterMedia', s.filterMedia);
      if (s.hasText) params.set('hasText', 'true');
      if (s.verified) params.set('verified', 'true');
      if (s.topics.length) params.set('topics', s.topics.join(';'));
      if (s.sourceStore) params.set('sourceStore', s.sourceStore);
      if (this.dataset.locale) params.set('locale', this.dataset.locale);
      const base = (this.dataset.proxy || '/apps/reviews').replace(/\/$/, '');
      return `${base}/products/${encodeURIComponent(this.dataset.sku)}/reviews?${params}`;
    }

    async load(change, moveFocus = false) {
      Object.assign(this.state, change);
      const slot = this.querySelector('[data-rv-slot]');
      this.controller?.abort();
      const controller = (this.controller = new AbortController());
      // Keep the list's height while the next page loads, so nothing below it jumps.
      slot.style.minHeight = `${slot.offsetHeight}px`;
      slot.setAttribute('aria-busy', 'true');
      this.announce(this.querySelector('[data-rv-loading-text]')?.textContent);
      let page;
      try {
        const response = await fetch(this.url(), { headers: { Accept: 'text/html' }, signal: controller.signal });
        page = this.pageFrom(await response.text());
        if (!page) throw new Error(`reviews: ${response.status}`);
      } catch (error) {
        if (controller.signal.aborted) return;
        page = this.querySelector('[data-rv-error-template]').content.firstElementChild.cloneNode(true);
      }
      if (localStorage.getItem('rv-votes')) (await this.extras()).showVotes(this, page);
      slot.replaceChildren(page);
      slot.removeAttribute('aria-busy');
      slot.style.minHeight = '';
      const status = page.querySelector('[data-rv-page-status]') || page;
      this.announce(status.textContent.trim());
      if (moveFocus) {
        const target = page.matches('[data-rv-error]') ? page.querySelector('[data-rv-retry]') : status;
        target?.focus({ preventScroll: true });
        const reduce = matchMedia('(prefers-reduced-motion: reduce)').matches;
        if (slot.getBoundingClientRect().top < 0) slot.scrollIntoView({ block: 'start', behavior: reduce ? 'auto' : 'smooth' });
      }
    }

    pageFrom(html) {
      const template = document.createElement('template');
      template.innerHTML = html;
      return template.content.querySelector('[data-rv-page]');
    }

    announce(text) {
      const live = this.querySelector('[data-rv-live]');
      if (live && text) live.textContent = text;
    }

    // Votes and "You reviewed this" live in reviews-votes.js, loaded when they are needed.
    extras() {
      return (ProductReviews.extrasScript ??= import(this.dataset.votesSrc));
    }

    async vote(button) {
      (await this.extras()).vote(this, button);
    }

    async markReviewed(options) {
      (await this.extras()).markReviewed(this, options);
    }

    // The form's code is loaded on the first press only; its markup is in the block's template.
    async openForm(button, fromLink) {
      const slot = this.querySelector('[data-rv-form-slot]');
      const open = button.getAttribute('aria-expanded') === 'true';
      if (open) return slot.querySelector('review-form')?.close();
      ProductReviews.formScript ??= import(this.dataset.formSrc).catch((error) => {
        ProductReviews.formScript = null;
        throw error;
      });
      await ProductReviews.formScript;
      const form = this.querySelector('[data-rv-form-template]').content.firstElementChild.cloneNode(true);
      slot.replaceChildren(form);
      form.start({ button, proxy: this.dataset.proxy || '/apps/reviews', sku: this.dataset.sku, locale: this.dataset.locale, fromLink });
    }

    async openMedia(link) {
      const lightbox = this.querySelector('reviews-lightbox');
      if (!lightbox) return;
      if (!customElements.get('reviews-lightbox')) {
        ProductReviews.lightboxScript ??= new Promise((resolve, reject) => {
          const script = Object.assign(document.createElement('script'), { src: this.dataset.lightboxSrc, onload: resolve, onerror: reject });
          document.head.append(script);
        });
        try {
          await ProductReviews.lightboxScript;
        } catch {
          ProductReviews.lightboxScript = null;
          window.open(link.href, '_blank', 'noopener');
          return;
        }
      }
      await customElements.whenDefined('reviews-lightbox');
      const items = [...link.closest('[data-rv-review]').querySelectorAll('a[data-rv-media]')];
      lightbox.open(items, items.indexOf(link), link);
    }
  }
  customElements.define('product-reviews', ProductReviews);
}
