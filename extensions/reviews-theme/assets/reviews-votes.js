/*
 * The reviews block's helpful votes and "You reviewed this", loaded by reviews.js (<product-reviews>)
 * when a shopper votes, when this browser has votes to show again, or for a logged-in customer.
 */
// A logged-in buyer who reviewed this product is not offered to write again: asked once, when
// the block nears the screen (one small private answer; guests never ask).
export function askReviewed(block) {
  block.watch = new IntersectionObserver(async (entries) => {
    if (!entries.some((e) => e.isIntersecting)) return;
    block.watch.disconnect();
    try {
      const response = await fetch(`${base(block)}/products/${encodeURIComponent(block.dataset.sku)}/reviewed`, { headers: { Accept: 'application/json' } });
      if (response.ok && (await response.json()).reviewed === true) markReviewed(block);
    } catch {}
  }, { rootMargin: '600px 0px' });
  block.watch.observe(block);
}

// "You reviewed this" where the write button was, at its height: nothing below moves.
export function markReviewed(block, { keepForm = false } = {}) {
  const button = block.querySelector('[data-rv-write]');
  if (!button) return;
  if (!keepForm) block.querySelector('[data-rv-form-slot]')?.replaceChildren();
  const note = document.createElement('p');
  note.className = 'rv-reviewed';
  note.dataset.rvReviewed = '';
  note.style.minBlockSize = `${button.offsetHeight}px`;
  note.textContent = button.dataset.rvReviewedText;
  button.replaceWith(note);
}

function base(block) {
  return (block.dataset.proxy || '/apps/reviews').replace(/\/$/, '');
}

// Helpful / not helpful: once per shopper (the server keeps who voted; a guest is this
// browser's random id). This browser also keeps the reviews it voted on (ids, the vote and the
// counts it was answered; nothing about the shopper), so after a reload the button stays
// pressed and the count keeps the vote until the page's own numbers include it. A second press
// is told, not sent. The counts' width is reserved in CSS.
function votes() {
  try {
    return JSON.parse(localStorage.getItem('rv-votes') || '{}') || {};
  } catch {
    return {};
  }
}

function remember(id, vote, counts) {
  const all = votes();
  delete all[id];
  all[id] = { vote, ...counts };
  const ids = Object.keys(all);
  ids.slice(0, Math.max(0, ids.length - 500)).forEach((old) => delete all[old]);
  try {
    localStorage.setItem('rv-votes', JSON.stringify(all));
  } catch {}
}

export function showVotes(block, root = block) {
  const all = votes();
  root.querySelectorAll('[data-rv-review]').forEach((review) => {
    const kept = all[review.id.replace(/^rv-review-/, '')];
    if (!kept) return;
    review.querySelector(`[data-rv-vote="${kept.vote}"]`)?.setAttribute('aria-pressed', 'true');
    ['helpful', 'unhelpful'].forEach((kind) => {
      const count = review.querySelector(`[data-rv-count="${kind}"]`);
      if (count && Number(kept[kind]) > Number(count.textContent)) count.textContent = String(kept[kind]);
    });
  });
}

export async function vote(block, button) {
  const group = button.closest('[data-rv-votes]');
  const id = button.closest('[data-rv-review]').id.replace(/^rv-review-/, '');
  const say = (code) => (group.querySelector('[data-rv-vote-status]').textContent = block.querySelector('[data-rv-vote-messages]').content.querySelector(`[data-msg="${code}"]`).textContent);
  if (group.querySelector('[aria-pressed="true"]')) return say('already');
  let voter = localStorage.getItem('rv-voter');
  if (!voter) localStorage.setItem('rv-voter', (voter = crypto.randomUUID()));
  const counts = () => ({ helpful: Number(group.querySelector('[data-rv-count="helpful"]').textContent), unhelpful: Number(group.querySelector('[data-rv-count="unhelpful"]').textContent) });
  group.querySelectorAll('button').forEach((b) => (b.disabled = true));
  try {
    const base = (block.dataset.proxy || '/apps/reviews').replace(/\/$/, '');
    const response = await fetch(`${base}/products/${encodeURIComponent(block.dataset.sku)}/reviews/${encodeURIComponent(id)}/vote`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ vote: button.dataset.rvVote, voter }) });
    const body = await response.json().catch(() => ({}));
    if (response.status === 409) {
      // Voted before, on another device or before this browser kept votes.
      const given = body.vote === 'unhelpful' ? 'unhelpful' : 'helpful';
      group.querySelector(`[data-rv-vote="${given}"]`).setAttribute('aria-pressed', 'true');
      remember(id, given, counts());
      return say('already');
    }
    if (!response.ok) throw new Error(String(response.status));
    group.querySelector('[data-rv-count="helpful"]').textContent = body.helpful;
    group.querySelector('[data-rv-count="unhelpful"]').textContent = body.unhelpful;
    button.setAttribute('aria-pressed', 'true');
    remember(id, button.dataset.rvVote, counts());
    say('thanks');
  } catch {
    say('failed');
  } finally {
    group.querySelectorAll('button').forEach((b) => (b.disabled = false));
  }
}
