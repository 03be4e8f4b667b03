// Reviews for products the service already holds (the offline demo's catalog, synced from the
// simulated store): deterministic per customer and SKU, and covering what the storefront draws —
// photos, a video, store replies, a syndicated review with its original (translated) text, topics,
// verified buyers, a "Quality" stars attribute on half the reviews, an AI summary on the first
// products, and questions (answered, unanswered, one waiting for moderation) on the first three.
// Unlike `seed`, it keeps the customer's catalog and orders and only adds reviews and questions
// (running it twice adds nothing new: ids are stable).
import { stableId } from "./ids";
import { prng } from "./seed";
import type { Store } from "./store";
import type { StoredReview } from "./types";

export interface SeedReviewsOptions {
  customer: string;
  skus: string[];
}

export interface SeedReviewsSummary {
  customer: string;
  /** Published reviews per SKU (SKUs left without reviews show 0). */
  published: Record<string, number>;
  /**
   * A review left pending on each of the first three reviewed SKUs: approving one shows it on the
   * storefront. Only three: the demo's moderation queue holds what its README promises.
   */
  pending: Record<string, string>;
  /** Published questions per SKU (only the first three SKUs have any). */
  questions: Record<string, number>;
}

const NAMES = [
  "Jane D.",
  "John S.",
  "Maria G.",
  "Wei C.",
  "Amara O.",
  "Lucas M.",
  "Sofia R.",
  "Kenji T.",
  "Ines P.",
  "Omar H.",
];
const TOPICS = ["quality", "size", "delivery", "price", "comfort"];
const GOOD = [
  "Great quality, exactly as described.",
  "Fits perfectly and feels comfortable all day.",
  "Arrived quickly, very happy with it.",
  "Excellent value for the price.",
  "Love it, bought a second one.",
];
const MEH = ["It is fine, nothing special.", "Good, but the size runs a bit small.", "Decent product, slow delivery."];
const BAD = ["Not what I expected.", "Broke after a week.", "Poor quality for the price."];
const QUESTIONS = [
  ["Is it machine washable?", "Yes, at 30 °C on a gentle cycle."],
  ["Does it come in other colours?", "Two more colours arrive next season."],
  ["How does the size run?", "True to size; order one up for a loose fit."],
  ["Is the packaging plastic-free?", null],
  ["Can I return it if it does not fit?", "Yes, within 30 days, free of charge."],
  ["Is it made of organic cotton?", "Yes, certified organic."],
  ["Does it shrink after washing?", null],
  ["How long does delivery take?", "Two to four working days."],
] as const;
const STORE_REVIEWS: [number, string][] = [
  [5, "Fast delivery and lovely packaging."],
  [5, "Helpful answers to my questions before I ordered."],
  [4, "Good store; one item arrived a day late."],
  [5, "Easy exchange when the size was wrong."],
  [3, "Fine, but shipping costs are high."],
  [5, "My third order here, always great."],
  [4, "Nice quality for the price."],
  [2, "Parcel took two weeks."],
  [5, "Beautiful products, exactly as pictured."],
  [4, "Friendly service by e-mail."],
  [5, "Gift arrived wrapped, with a card."],
  [5, "Will shop again."],
  [1, "Order was cancelled without notice."],
  [5, "Quick refund, no questions."],
  [4, "Good choice of colours."],
  [5, "Not yet moderated."],
];
const DAY = 86_400_000;
const BASE = Date.UTC(2026, 9, 1, 12, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString();

export function seedProductReviews(store: Store, opts: SeedReviewsOptions): SeedReviewsSummary {
  const cs = store.customer(opts.customer);
  cs.settings = {
    ...cs.settings,
    syndicationStores: { ...cs.settings.syndicationStores, "partner-store": { name: "Partner Store", logo: null } },
  };
  // A stars attribute for every product, so the blocks' attribute averages have data to show.
  const quality = stableId(opts.customer, "attr", "quality");
  if (!cs.attributes.has(quality)) {
    cs.attributes.set(quality, {
      _id: quality,
      customer: opts.customer,
      title: "Quality",
      description: "How good is the quality?",
      order: 1,
      type: "stars",
      categories: null,
      choices: [],
      scaleMin: 1,
      scaleMax: 5,
      appliesTo: "product",
      __v: 0,
    });
  }
  const published: Record<string, number> = {};
  const pending: Record<string, string> = {};
  opts.skus.forEach((sku, index) => {
    const rand = prng(`${opts.customer}:reviews:${sku}`);
    const int = (min: number, max: number) => min + Math.floor(rand() * (max - min + 1));
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
    // The first product has a full page and more; one in five stays without reviews.
    const count = index === 0 ? 24 : index % 5 === 4 ? 0 : int(1, 9);
    published[sku] = 0;
    for (let k = 0; k < count; k++) {
      const id = stableId(opts.customer, "sku-review", sku, k);
      const rating = k === 1 ? 2 : pick([5, 5, 5, 4, 4, 4, 3, 2, 1]);
      const created = BASE - int(1, 300) * DAY - int(0, 86_399) * 1000;
      const isPending = k === count - 1 && count > 1 && index < 3;
      const review: StoredReview = {
        _id: id,
        customer: opts.customer,
        sku,
        userId: `shopper-${(index * 7 + k) % 40}`,
        email: `shopper${(index * 7 + k) % 40}@example.com`,
        name: pick(NAMES),
        text: k % 9 === 8 ? "" : rating >= 4 ? pick(GOOD) : rating === 3 ? pick(MEH) : pick(BAD),
        source: pick(["email", "web", "sms", "whatsapp"]),
        status: isPending ? "pending" : "published",
        rating,
        helpful: isPending ? 0 : int(0, 12),
        unhelpful: isPending ? 0 : int(0, 3),
        verified: rand() < 0.7,
        recommended: rating >= 4,
        moderationTags: [],
        topics: TOPICS.filter(() => rand() < 0.35),
        autoModerated: false,
        ...(isPending ? {} : { moderatedAt: iso(created + DAY) }),
        created: iso(created),
        updated: iso(created),
        pictures:
          k === 0 || rand() < 0.2
            ? [1, 2]
                .slice(0, k === 0 ? 2 : 1)
                .map((n) => ({ _id: stableId(id, "pic", n), fileKey: `seed/${id}-${n}.svg` }))
            : [],
        ...(index === 0 && k === 2
          ? { video: { fileKey: `seed/${id}-video.mp4`, fileName: "unboxing.mp4", converted: true } }
          : {}),
        attributes:
          k % 2 === 0 ? [{ _id: quality, value: Math.max(1, Math.min(5, rating + (k % 3 === 0 ? 0 : -1))) }] : [],
        reply:
          !isPending && (k === 0 || rand() < 0.3)
            ? { created: iso(created + 2 * DAY), text: "Thank you for your review!", helpful: int(0, 3), unhelpful: 0 }
            : null,
        updateToken: stableId(id, "update-token"),
        votes: {},
        __v: 0,
        ...(index === 0 && k === 3
          ? {
              text: "Very comfortable, I wear it every day.",
              source: "syndication",
              syndication: {
                sourceCustomer: "partner-store",
                displaySource: "Partner Store",
                logo: null,
                productUrl: "https://partner-store.example/products/tee",
                originalText: "Muy cómoda, la uso todos los días.",
              },
            }
          : {}),
      };
      cs.putReview(review);
      if (isPending) pending[sku] = id;
      else published[sku]++;
    }
    const product = cs.products.get(sku);
    if (product && index < 3 && count > 0) {
      product.aiSummary = {
        processed: iso(BASE - 2 * DAY),
        text: "Shoppers praise the quality and comfort; a few mention that the size runs slightly small.",
        topics: { quality: "positive", comfort: "positive", size: "negative" },
      };
    }
  });
  const questions: Record<string, number> = {};
  opts.skus.slice(0, 3).forEach((sku, index) => {
    // The first product has more than a page of questions; the next two a couple each.
    const asked = index === 0 ? QUESTIONS.length : 2;
    questions[sku] = 0;
    for (let k = 0; k <= asked; k++) {
      const id = stableId(opts.customer, "sku-question", sku, k);
      const waiting = k === asked; // one more, still in moderation: never shown
      const [text, answer] = waiting ? ["Is there a gift wrap option?", null] : QUESTIONS[k];
      const created = BASE - (k * 3 + 1) * DAY;
      cs.questions.set(id, {
        _id: id,
        customer: opts.customer,
        sku,
        userId: `seed-user-${k}`,
        email: `shopper${k}@example.com`,
        name: NAMES[(k + index) % NAMES.length],
        text,
        status: waiting ? "sent" : "published",
        created: iso(created),
        reply: answer ? { created: iso(created + DAY), text: answer, helpful: 0, unhelpful: 0 } : null,
        __v: 0,
      });
      if (!waiting) questions[sku]++;
    }
  });
  // Store reviews (one still pending) and a top-rated list of the best reviewed products.
  STORE_REVIEWS.forEach(([rating, text], i) => {
    const id = stableId(opts.customer, "seed-store-review", i);
    cs.storeReviews.set(id, {
      _id: id,
      customer: opts.customer,
      name: NAMES[(i * 3) % NAMES.length],
      rating,
      text,
      created: iso(BASE - (2 + i * 4) * DAY),
      status: i === STORE_REVIEWS.length - 1 ? "pending" : "published",
      sku: null,
      helpful: 0,
      unhelpful: 0,
    });
  });
  const averages = opts.skus
    .filter((sku) => published[sku]! >= 2)
    .map((sku) => {
      const rs = [...cs.reviews.values()].filter((r) => r.sku === sku && r.status === "published");
      return { sku, avg: rs.reduce((a, r) => a + r.rating, 0) / rs.length };
    })
    .sort((a, b) => b.avg - a.avg || (a.sku < b.sku ? -1 : 1));
  cs.settings.topRated = { skus: averages.slice(0, 2).map((a) => a.sku), badgeLabel: "Top rated" };
  store.changed();
  return { customer: opts.customer, published, pending, questions };
}
