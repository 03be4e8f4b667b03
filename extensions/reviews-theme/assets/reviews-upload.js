/*
 * <review-upload>: the photo or video field of the review form's second step, a drop zone with a
 * button (the keyboard's way in), previews (a photo's thumbnail, a video's name and length), a
 * progress bar per file, and the size, type and count refused before anything is sent. Every word
 * comes from the form's translated messages. reviews-form.js loads this module when the form opens
 * (the page pays nothing for it before) and calls `setup`; the files go to the service as before
 * (presign through the app proxy, PUT to the storage's URL, confirm).
 */
if (!customElements.get('review-upload')) {
  class ReviewUpload extends HTMLElement {
    setup({ form, kind, id, types, maxBytes, maxCount }) {
      Object.assign(this, { form, kind, types, maxBytes, maxCount });
      const msg = (code) => form.msg(code);
      const photo = kind === 'photo';
      this.className = 'rv-form__field rv-drop';
      this.setAttribute('role', 'group');
      this.setAttribute('aria-labelledby', `${id}-label`);
      const label = form.el('p', 'rv-form__label', msg(photo ? 'photos' : 'video'));
      label.id = `${id}-label`;
      const zone = form.el('div', 'rv-drop__zone');
      const input = Object.assign(document.createElement('input'), { type: 'file', id, accept: types.join(','), multiple: photo, hidden: true });
      const button = form.el('button', 'rv-button', msg(photo ? 'choose_photos' : 'choose_video'));
      button.type = 'button';
      const hint = form.el('p', 'rv-drop__hint', this.limits(msg(photo ? 'photo_limits' : 'video_limits')));
      hint.id = `${id}-hint`;
      button.setAttribute('aria-describedby', hint.id);
      zone.append(form.el('p', 'rv-drop__lead', msg(photo ? 'drop_photos' : 'drop_video')), button, hint, input);
      this.list = form.el('ul', 'rv-files');
      this.list.setAttribute('role', 'list');
      this.append(label, zone, this.list);
      button.addEventListener('click', () => input.click());
      input.addEventListener('change', () => {
        this.take(input.files);
        input.value = '';
      });
      zone.addEventListener('dragover', (event) => {
        event.preventDefault();
        zone.dataset.over = '';
      });
      zone.addEventListener('dragleave', () => delete zone.dataset.over);
      zone.addEventListener('drop', (event) => {
        event.preventDefault();
        delete zone.dataset.over;
        this.take(event.dataTransfer.files);
      });
      return this;
    }

    // "Up to [count] photos: [types], [size] each": the limits the server enforces, told before.
    limits(text) {
      const names = [...new Set(this.types.map((t) => t.split('/')[1].replace('quicktime', 'mov').replace('jpeg', 'jpg').toUpperCase()))];
      const mb = new Intl.NumberFormat(document.documentElement.lang || undefined, { style: 'unit', unit: 'megabyte', maximumFractionDigits: 0 }).format(this.maxBytes / 1048576);
      return text.replace('[count]', String(this.maxCount)).replace('[types]', names.join(', ')).replace('[size]', mb);
    }

    // The button's word, and for a screen reader the file it acts on.
    say(action, code, file) {
      action.textContent = this.form.msg(code);
      action.setAttribute('aria-label', `${this.form.msg(code)}: ${file.name}`);
    }

    take(files) {
      for (const file of files) this.add(file);
    }

    add(file) {
      const form = this.form;
      const item = form.el('li', 'rv-file');
      const preview = form.el('span', 'rv-file__preview');
      preview.setAttribute('aria-hidden', 'true');
      const name = form.el('span', 'rv-file__name', file.name);
      const bar = Object.assign(document.createElement('progress'), { max: 100, value: 0 });
      bar.setAttribute('aria-label', file.name);
      const note = form.el('span', 'rv-file__note');
      note.setAttribute('role', 'status');
      const action = form.el('button', 'rv-button rv-button--small');
      action.type = 'button';
      item.append(preview, name, action, bar, note);
      this.list.append(item);
      const count = this.list.querySelectorAll('.rv-file:not([data-failed])').length;
      const refuse = !this.types.includes(file.type) ? 'file_type' : file.size > this.maxBytes ? 'file_size' : count > this.maxCount ? 'file_count' : null;
      if (refuse) {
        item.dataset.failed = '';
        bar.remove();
        note.textContent = form.msg(refuse);
        this.say(action, 'remove', file);
        action.onclick = () => item.remove();
        return;
      }
      this.preview(file, preview, name);
      this.send(file, item, bar, note, action, 0);
    }

    // A photo's thumbnail; a video's length beside its name (read from its metadata, nothing played).
    preview(file, box, name) {
      const url = URL.createObjectURL(file);
      if (this.kind === 'photo') {
        const img = Object.assign(document.createElement('img'), { src: url, alt: '', width: 48, height: 48 });
        img.onload = img.onerror = () => URL.revokeObjectURL(url);
        return box.append(img);
      }
      box.classList.add('rv-file__preview--video');
      const video = Object.assign(document.createElement('video'), { preload: 'metadata', muted: true, src: url });
      video.onloadedmetadata = () => {
        const s = Math.round(video.duration);
        if (Number.isFinite(s)) name.append(' ', this.form.el('span', 'rv-file__duration', `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`));
        URL.revokeObjectURL(url);
      };
      video.onerror = () => URL.revokeObjectURL(url);
    }

    async send(file, item, bar, note, action, attempt) {
      const form = this.form;
      const at = `${form.base}/${encodeURIComponent(form.review.id)}/media`;
      note.textContent = '';
      this.say(action, 'cancel', file);
      const xhr = new XMLHttpRequest();
      action.onclick = () => xhr.abort();
      try {
        // `upload` tells apart two files of one size sent in the same second: the proxy takes a signed
        // request with the same body once (replay guard), and the signature's clock counts seconds.
        const presigned = await form.post(at, { kind: this.kind, mimeType: file.type, fileSize: file.size, write: form.write, upload: Math.random().toString(36).slice(2) });
        if (presigned.status !== 200) throw new Error(presigned.body?.error || 'presign');
        await new Promise((resolve, reject) => {
          xhr.open('PUT', presigned.body.uploadUrl);
          xhr.setRequestHeader('Content-Type', file.type);
          xhr.upload.onprogress = (e) => e.lengthComputable && (bar.value = Math.round((e.loaded / e.total) * 100));
          xhr.onload = () => (xhr.status < 300 ? resolve() : reject(new Error(String(xhr.status))));
          xhr.onerror = () => reject(new Error('network'));
          xhr.onabort = () => reject(new Error('aborted'));
          xhr.send(file);
        });
        const confirmed = await form.post(`${at}/confirm`, { kind: this.kind, keys: [presigned.body.fileKey], write: form.write });
        if (confirmed.status !== 200) throw new Error('confirm');
        bar.value = 100;
        note.textContent = form.msg('file_done');
        action.remove();
      } catch (error) {
        if (error.message === 'aborted') return item.remove();
        // One quiet retry for a network blip, then the shopper decides.
        if (attempt === 0 && error.message !== 'file_type' && error.message !== 'file_size') return this.send(file, item, bar, note, action, 1);
        item.dataset.failed = '';
        note.textContent = form.msg('file_failed');
        this.say(action, 'retry', file);
        action.onclick = () => {
          delete item.dataset.failed;
          this.send(file, item, bar, note, action, 1);
        };
      }
    }
  }
  customElements.define('review-upload', ReviewUpload);
}
