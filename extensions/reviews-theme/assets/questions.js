/*
 * <product-questions>: the Q&A block. The questions are not in the page (the service changes them
 * without telling the app): the first page is asked of the app proxy when the block comes near the
 * screen, into space the block keeps for it, and other pages when asked. "Ask a question" opens the
 * form rendered in the block and sends it through the proxy; who asks is decided on the server.
 * Every word comes from the block's templates; shopper text is only ever set as text.
 */
if (!customElements.get('product-questions')) {
  class ProductQuestions extends HTMLElement {
    connectedCallback() {
      this.page = 1;
      this.addEventListener('click', this);
      this.querySelector('[data-rv-q-form]').addEventListener('submit', (event) => this.submit(event));
      this.querySelector('[data-rv-q-form]').addEventListener('input', (event) => this.showError(event.target.name, null));
      this.querySelector('.rv-q-form').addEventListener('keydown', (event) => event.key === 'Escape' && !this.sending && this.closeForm());
      if (this.hasAttribute('data-rv-sample')) return;
      // Ahead of the screen, so the list is there by the time the shopper scrolls to it.
      this.observer = new IntersectionObserver((entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        this.observer.disconnect();
        this.load(1, false);
      }, { rootMargin: '600px 0px' });
      this.observer.observe(this);
    }

    disconnectedCallback() {
      this.observer?.disconnect();
      this.controller?.abort();
    }

    handleEvent(event) {
      const target = event.target.closest('button');
      if (!target || !this.contains(target)) return;
      const { dataset } = target;
      if ('rvAsk' in dataset) this.openForm();
      else if ('rvQCancel' in dataset) this.closeForm();
      else if (dataset.rvGoto) this.load(Number(dataset.rvGoto), true);
      else if ('rvRetry' in dataset) this.load(this.page, true);
    }

    base() {
      return `${(this.dataset.proxy || '/apps/reviews').replace(/\/$/, '')}/products/${encodeURIComponent(this.dataset.sku)}/questions`;
    }

    async load(page, moveFocus) {
      const slot = this.querySelector('[data-rv-slot]');
      this.controller?.abort();
      const controller = (this.controller = new AbortController());
      slot.style.minHeight = `${slot.offsetHeight}px`;
      slot.setAttribute('aria-busy', 'true');
      const params = new URLSearchParams({ page: String(page), pageSize: this.dataset.pageSize || '5' });
      if (this.dataset.locale) params.set('locale', this.dataset.locale);
      let fragment = null;
      try {
        const response = await fetch(`${this.base()}?${params}`, { headers: { Accept: 'text/html' }, signal: controller.signal });
        if (response.ok) {
          const template = document.createElement('template');
          template.innerHTML = await response.text();
          fragment = template.content.querySelector('[data-rv-page]');
        }
      } catch {
        if (controller.signal.aborted) return;
      }
      if (!fragment) fragment = this.querySelector('[data-rv-error-template]').content.firstElementChild.cloneNode(true);
      else this.page = Number(fragment.dataset.page) || page;
      slot.replaceChildren(fragment);
      slot.removeAttribute('aria-busy');
      slot.style.minHeight = '';
      if (moveFocus) {
        const status = fragment.matches('[data-rv-error]') ? fragment.querySelector('[data-rv-retry]') : fragment.querySelector('[data-rv-page-status]');
        status?.focus({ preventScroll: true });
        this.querySelector('[data-rv-live]').textContent = (fragment.querySelector('[data-rv-page-status]') || fragment).textContent.trim();
        if (slot.getBoundingClientRect().top < 0) slot.scrollIntoView({ block: 'start' });
      }
    }

    openForm() {
      const box = this.querySelector('.rv-q-form');
      box.hidden = false;
      box.querySelector('form').hidden = false;
      box.querySelector('[data-rv-form-status]').textContent = '';
      this.querySelector('[data-rv-ask]').setAttribute('aria-expanded', 'true');
      box.querySelector('[data-rv-form-heading]').focus();
    }

    closeForm() {
      this.querySelector('.rv-q-form').hidden = true;
      const ask = this.querySelector('[data-rv-ask]');
      ask.setAttribute('aria-expanded', 'false');
      ask.focus();
    }

    // A field's own words for a code first ("name-required"), then the form's.
    msg(code, field) {
      const messages = this.querySelector('[data-rv-q-messages]').content;
      return (field && messages.querySelector(`[data-msg="${field}-${code}"]`)?.textContent) || messages.querySelector(`[data-msg="${code}"]`)?.textContent || code;
    }

    showError(name, code) {
      const slot = this.querySelector(`[data-rv-error-for="${name}"]`);
      if (!slot) return;
      slot.hidden = !code;
      slot.textContent = code ? this.msg(code, name) : '';
      const field = this.querySelector(`[data-rv-q-form] [name="${name}"]`);
      if (code) field?.setAttribute('aria-invalid', 'true');
      else field?.removeAttribute('aria-invalid');
    }

    showErrors(errors) {
      for (const [name, code] of Object.entries(errors)) this.showError(name, code);
      this.querySelector('[data-rv-q-form] [aria-invalid="true"]')?.focus();
    }

    async submit(event) {
      event.preventDefault();
      if (this.sending) return;
      const form = event.target;
      const status = this.querySelector('[data-rv-form-status]');
      const f = new FormData(form);
      const data = {
        text: String(f.get('text') || '').trim(),
        orderNumber: String(f.get('orderNumber') || '').trim() || undefined,
        email: String(f.get('email') || '').trim() || undefined,
        name: String(f.get('name') || '').trim() || undefined,
        website: String(f.get('website') || ''),
      };
      // Same rules as the server, so most mistakes are told before anything is sent.
      const errors = {};
      if (data.text.length < 5) errors.text = 'required';
      if (data.orderNumber && !/^#?\s*\d{1,12}$/.test(data.orderNumber)) errors.orderNumber = 'order_number';
      if (data.email && !/^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/.test(data.email)) errors.email = 'email';
      // A guest asking without an order gives a name and an e-mail.
      if (form.elements.namedItem('name')) {
        if (!data.name) errors.name = 'required';
        if (!data.email) errors.email = 'required';
      }
      if (Object.keys(errors).length) return this.showErrors(errors);
      this.sending = true;
      status.textContent = this.msg('sending');
      let answer = { status: 0, body: null };
      try {
        const response = await fetch(this.base(), { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify(data) });
        const text = await response.text();
        answer = { status: response.status, body: text.startsWith('{') ? JSON.parse(text) : null };
      } catch {
        // Nothing reached the app: the text stays in the form to send again.
      }
      this.sending = false;
      if (answer.status === 201 || answer.status === 202) {
        form.reset();
        form.hidden = true;
        status.textContent = this.msg(answer.status === 201 ? 'sent' : 'received');
        return status.focus();
      }
      if (answer.body?.errors) {
        status.textContent = '';
        return this.showErrors(answer.body.errors);
      }
      const code = answer.body?.error;
      status.textContent = this.msg(code === 'login_required' || code === 'no_email' ? 'login_required' : answer.status === 413 ? 'too_large' : answer.status === 429 ? 'busy' : answer.status === 422 ? 'refused' : 'unavailable');
      status.focus();
    }
  }
  customElements.define('product-questions', ProductQuestions);
}
