/*
 * <review-form>: the "write a review" form of the reviews block, loaded when the shopper presses
 * "Write a review". The markup and every word come from the block's template (Liquid, translated);
 * this sends the review through the app proxy, then offers the product's attributes, photos and a
 * video (their drop zones are reviews-upload.js, asked for as the form opens). Who writes is decided on the server (the logged-in customer or a verified order): nothing
 * here names the shopper. Shopper text is only ever set as text.
 */
if (!customElements.get('review-form')) {
  class ReviewForm extends HTMLElement {
    start({ button, proxy, sku, locale, fromLink }) {
      this.button = button;
      // From a review link: the order speaks for the shopper, so nothing is asked about who writes.
      const link = (this.link = fromLink ? this.readLink(sku) : null);
      if (fromLink && !link) return this.remove(); // a link for another product of the order
      if (link) {
        this.querySelector('[data-rv-field="who"]')?.remove();
        this.querySelector('[data-rv-link-note]')?.removeAttribute('hidden');
        if (link.rating >= 1 && link.rating <= 5) this.querySelector(`input[name="rating"][value="${link.rating}"]`).checked = true;
      }
      ReviewForm.upload ??= this.dataset.uploadSrc ? import(this.dataset.uploadSrc).then(() => true, () => false) : Promise.resolve(false);
      this.base = `${proxy.replace(/\/$/, '')}/products/${encodeURIComponent(sku)}/reviews`;
      this.locale = locale;
      this.form = this.querySelector('form');
      this.status = this.querySelector('[data-rv-form-status]');
      this.form.addEventListener('submit', (event) => this.submit(event));
      this.form.addEventListener('input', (event) => this.onInput(event.target));
      this.querySelector('[data-rv-form-cancel]').addEventListener('click', () => this.close());
      this.addEventListener('keydown', (event) => event.key === 'Escape' && !this.sending && this.close());
      button.setAttribute('aria-expanded', 'true');
      this.querySelector('[data-rv-form-heading]').focus();
    }

    // `?rv-order=<order>&rv-token=<token>[&rv-rating=1..5][&rv-sku=]`, taken out of the address bar at
    // once so the token stays out of history, bookmarks and shared URLs.
    readLink(sku) {
      const url = new URL(location.href);
      const p = url.searchParams;
      const link = { order: p.get('rv-order'), token: p.get('rv-token'), rating: Number(p.get('rv-rating')) || 0 };
      const forHere = !p.get('rv-sku') || p.get('rv-sku') === sku;
      ['rv-order', 'rv-token', 'rv-rating', 'rv-sku'].forEach((k) => p.delete(k));
      history.replaceState(history.state, '', url);
      if (!link.order || !link.token || !forHere) return null;
      requestAnimationFrame(() => this.scrollIntoView({ block: 'start' }));
      return link;
    }

    close() {
      this.button.setAttribute('aria-expanded', 'false');
      this.button.focus();
      this.remove();
    }

    msg(code) {
      return this.querySelector('[data-rv-form-messages]').content.querySelector(`[data-msg="${code}"]`)?.textContent ?? code;
    }

    say(text, tone) {
      this.status.textContent = text;
      if (tone) this.status.dataset.tone = tone;
      else delete this.status.dataset.tone;
    }

    // Reviewed before (here, through the order, or on the service's rating page): said as an error,
    // with what they gave when the service says, and a link to where their review is kept.
    reviewedBefore(review) {
      this.say(this.msg('you_reviewed'), 'error');
      if (review?.rating >= 1 && review.rating <= 5) this.status.append(' ', this.msg('your_rating').replace('[stars]', this.msg(`stars-${review.rating}`)));
      const link = this.el('a', 'rv-form__link', this.msg('your_review'));
      link.href = this.dataset.loggedIn === 'true' ? this.dataset.accountUrl : `#${this.button.closest('product-reviews').id}`;
      this.status.append(' ', link);
      this.form.remove();
      this.status.focus();
      this.button.closest('product-reviews')?.markReviewed({ keepForm: true });
    }

    onInput(field) {
      if (field.name === 'text') {
        const counter = this.querySelector('[data-rv-counter]');
        counter.textContent = counter.dataset.template.replace('[count]', String(field.value.length));
      }
      this.showError(field.name, null);
    }

    showError(name, code) {
      const slot = this.querySelector(`[data-rv-error-for="${name}"]`);
      if (!slot) return;
      slot.hidden = !code;
      slot.textContent = code ? this.msg(code) : '';
      this.form.querySelectorAll(`[name="${name}"]`).forEach((f) => {
        if (code) f.setAttribute('aria-invalid', 'true');
        else f.removeAttribute('aria-invalid');
      });
    }

    // Same rules as the server, so most mistakes are told before anything is sent.
    check(data) {
      const errors = {};
      if (!data.rating) errors.rating = 'rating';
      if (data.text.length > 5000) errors.text = 'too_long';
      if (this.dataset.loggedIn !== 'true') {
        if (data.orderNumber && !/^#?\s*\d{1,12}$/.test(data.orderNumber)) errors.orderNumber = 'order_number';
        if (data.orderNumber && !data.email) errors.email = 'required';
        else if (data.email && !/^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/.test(data.email)) errors.email = 'email';
      }
      return errors;
    }

    async submit(event) {
      event.preventDefault();
      if (this.sending) return;
      const f = new FormData(this.form);
      const data = {
        rating: Number(f.get('rating')) || 0,
        text: String(f.get('text') || '').trim(),
        recommended: f.get('recommended') || undefined,
        orderNumber: String(f.get('orderNumber') || '').trim() || undefined,
        email: String(f.get('email') || '').trim() || undefined,
        website: String(f.get('website') || ''),
        ...(this.link ? { linkOrder: this.link.order, linkToken: this.link.token } : {}),
      };
      const errors = this.check({ ...data, text: data.text, orderNumber: data.orderNumber || '', email: data.email || '' });
      if (Object.keys(errors).length) return this.showErrors(errors);
      this.sending = true;
      this.say(this.msg('sending'));
      const answer = await this.post(this.base, data);
      this.sending = false;
      if (answer.status === 201) return this.extras(answer.body);
      if (answer.status === 202) return this.finish('received');
      if (answer.body?.error === 'already_reviewed') return this.reviewedBefore(answer.body.review);
      if (answer.body?.errors?.link) {
        this.say(this.msg(answer.body.errors.link));
        return this.status.focus();
      }
      if (answer.body?.errors) return this.showErrors(answer.body.errors);
      this.say(this.msg(answer.body?.error === 'login_required' || answer.body?.error === 'no_email' ? 'login_required' : answer.status === 413 ? 'too_large' : answer.status === 429 ? 'busy' : answer.status === 422 ? 'refused' : 'unavailable'));
      this.status.focus();
    }

    showErrors(errors) {
      for (const [name, code] of Object.entries(errors)) this.showError(name, code);
      this.say('');
      const first = this.form.querySelector('[aria-invalid="true"]');
      first?.focus();
    }

    async post(url, body) {
      try {
        const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify(body) });
        const text = await response.text();
        return { status: response.status, body: text.startsWith('{') ? JSON.parse(text) : null };
      } catch {
        return { status: 0, body: null };
      }
    }

    // After the review is accepted: its attributes, photos and a video, all optional.
    async extras({ review, write, media }) {
      this.review = review;
      this.write = write;
      this.media = media;
      this.form.remove();
      const step = document.createElement('form');
      step.className = 'rv-form__form';
      step.noValidate = true;
      step.dataset.rvFormStep = 'extras';
      const heading = this.el('h3', 'rv__subheading', this.msg('sent'));
      heading.tabIndex = -1;
      step.append(heading, this.el('p', 'rv-form__hint', this.msg('extras')));
      if (review.attributes.length) step.append(this.attributeFields(review.attributes));
      // The drop zones: their own module, asked for when the form opened (reviews-upload.js).
      if ((media?.photos > 0 || media?.videoMaxBytes > 0) && (await ReviewForm.upload) && customElements.get('review-upload')) {
        const id = `${this.button.closest('product-reviews').id}-`;
        const field = (kind, types, maxBytes, maxCount) => document.createElement('review-upload').setup({ form: this, kind, id: id + kind, types, maxBytes, maxCount });
        if (media.photos > 0) step.append(field('photo', media.photoTypes, media.photoMaxBytes, media.photos));
        if (media.videoMaxBytes > 0) step.append(field('video', media.videoTypes, media.videoMaxBytes, 1));
      }
      const actions = this.el('div', 'rv-form__actions');
      const done = this.el('button', 'rv-button rv-button--primary', this.msg('done'));
      done.type = 'submit';
      actions.append(done);
      step.append(actions);
      step.addEventListener('submit', (event) => this.sendExtras(event, step));
      this.prepend(step);
      this.say('');
      heading.focus();
    }

    el(tag, className, text) {
      const node = document.createElement(tag);
      if (className) node.className = className;
      if (text !== undefined) node.textContent = text;
      return node;
    }

    attributeFields(attributes) {
      const box = this.el('div', 'rv-form__attributes');
      box.append(this.el('h4', 'rv-form__label', this.msg('attributes')));
      const prefix = this.button.closest('product-reviews').id;
      attributes.forEach((a, n) => {
        const stars = a.type === 'stars';
        const set = this.el('fieldset', stars ? '' : 'rv-form__choice');
        set.dataset.attribute = a.id;
        set.append(this.el('legend', '', a.title));
        // Stars as the rating above (a radio group with "4 stars" names); choices as labelled radios.
        const row = stars ? this.el('div', 'rv-rate') : set;
        (stars ? [1, 2, 3, 4, 5] : a.choices.map((_, i) => i)).forEach((value) => {
          const input = Object.assign(document.createElement('input'), { type: 'radio', name: `attr-${n}`, value: String(value), id: `${prefix}-a${n}-${value}` });
          if (stars) {
            input.className = 'rv-rate__input';
            const label = this.el('label', 'rv-rate__star');
            label.htmlFor = input.id;
            label.append(this.el('span', 'visually-hidden', this.msg(`stars-${value}`)));
            row.append(input, label);
          } else {
            const label = this.el('label');
            label.append(input, ' ', a.choices[value]);
            row.append(label);
          }
        });
        if (stars) set.append(row);
        box.append(set);
      });
      return box;
    }

    async sendExtras(event, step) {
      event.preventDefault();
      const attributes = [...step.querySelectorAll('[data-attribute]')]
        .map((set) => ({ id: set.dataset.attribute, value: Number(set.querySelector('input:checked')?.value) }))
        .filter((a) => Number.isInteger(a.value));
      if (attributes.length) {
        const answer = await this.post(`${this.base}/${encodeURIComponent(this.review.id)}/attributes`, { attributes, write: this.write });
        if (answer.status !== 200) {
          this.say(this.msg(answer.status === 429 ? 'busy' : 'unavailable'));
          return this.status.focus();
        }
      }
      this.finish('sent', step);
    }

    finish(code, step) {
      (step || this.form).remove();
      this.say(this.msg(code));
      this.status.focus();
      this.button.setAttribute('aria-expanded', 'false');
      // A logged-in buyer has reviewed it now: the block says so where the button was.
      if (this.dataset.loggedIn === 'true') return this.button.closest('product-reviews')?.markReviewed({ keepForm: true });
      this.button.hidden = true;
    }
  }
  customElements.define('review-form', ReviewForm);
}
