// Deterministic demo data: the same customer and product count always produce the same records
// (ids, dates, ratings), from a PRNG seeded with the customer key. It covers every resource the
// storefront and the dashboard show: products with variants and specifications, v1 and v2 orders
// (with a marketplace seller), reviews with photos, a video, store replies, attributes, topics and
// one syndicated review, every moderation status, questions with replies, NPS answers, store
// reviews, a product group and the top-rated list. Some order items are left unreviewed so the
// "rate your order" flows have work to do.
import { normalizeUrl } from "./catalog.rules";
import { stableId } from "./ids";
import type { CustomerState, Store } from "./store";
import { defaultSettings } from "./store";
import type { AttributeDefinition, OrderItem, ReviewStatus, StoredOrder, StoredProduct, StoredReview } from "./types";

export interface SeedOptions {
  customer?: string;
  products?: number;
}

export interface SeedSummary {
  customer: string;
  products: string[];
  orders: number;
  reviews: number;
  questions: number;
  nps: number;
  storeReviews: number;
  groups: number;
  users: { userId: string; email: string; name: string }[];
  /** An order of the first user with unreviewed products, for the find/rate flows. */
  sampleOrder: { orderId: string; verificationTokenId: string; userId: string; email: string };
}

/** mulberry32: small, fast, good enough for demo data, and seedable. */
export function prng(seedText: string): () => number {
  let a = [...seedText].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 2654435761) >>> 0, 0x9e3779b9);
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const BASE = Date.UTC(2026, 9, 1, 12, 0, 0);
const DAY = 86_400_000;
const ADJECTIVES = ["Classic", "Everyday", "Trail", "Urban", "Cozy", "Light", "Premium", "Summer", "Winter", "Studio"];
const NOUNS: [string, string][] = [
  ["T-Shirt", "Apparel"],
  ["Sneaker", "Footwear"],
  ["Backpack", "Accessories"],
  ["Hoodie", "Apparel"],
  ["Mug", "Home"],
  ["Boot", "Footwear"],
  ["Cap", "Accessories"],
  ["Blanket", "Home"],
];
const BRANDS = ["Northwind", "Acme", "Bluebird"];
const USERS: [string, string][] = [
  ["Jane Doe", "jane.doe@example.com"],
  ["John Smith", "john.smith@example.com"],
  ["Maria Garcia", "maria.garcia@example.com"],
  ["Wei Chen", "wei.chen@example.com"],
  ["Amara Okafor", "amara.okafor@example.com"],
  ["Lucas Martin", "lucas.martin@example.com"],
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

const iso = (ms: number) => new Date(ms).toISOString();

export function seedCustomer(store: Store, origin: string, opts: SeedOptions = {}): SeedSummary {
  const customer = opts.customer ?? "demo-store";
  const productCount = Math.max(1, Math.min(500, opts.products ?? 12));
  const rand = prng(`${customer}:${productCount}`);
  const int = (min: number, max: number) => min + Math.floor(rand() * (max - min + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];

  store.drop(customer);
  const cs: CustomerState = store.customer(customer);
  const title = customer.replace(/[-_]+/g, " ").replace(/\b\w/g, (c) => c.toUpperCase());
  cs.settings = {
    ...defaultSettings(customer),
    storeName: title,
    syndicationStores: { "partner-store": { name: "Partner Store", logo: null } },
  };

  // ---- attributes ------------------------------------------------------------------------------
  const attributes: AttributeDefinition[] = [
    {
      _id: stableId(customer, "attr", "quality"),
      customer,
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
    },
    {
      _id: stableId(customer, "attr", "fit"),
      customer,
      title: "Fit",
      description: "How does it fit?",
      order: 2,
      type: "multiple-choice",
      categories: ["Apparel", "Footwear"],
      choices: ["Runs small", "True to size", "Runs large"],
      scaleMin: 0,
      scaleMax: 2,
      appliesTo: "product",
      __v: 0,
    },
  ];
  for (const a of attributes) cs.attributes.set(a._id, a);

  // ---- products ----------------------------------------------------------------------------------
  const products: StoredProduct[] = [];
  for (let i = 0; i < productCount; i++) {
    const [noun, category] = NOUNS[i % NOUNS.length];
    const name = `${ADJECTIVES[Math.floor(i / NOUNS.length) % ADJECTIVES.length]} ${noun}${i >= NOUNS.length * ADJECTIVES.length ? ` ${i}` : ""}`;
    const handle = name.toLowerCase().replace(/[^a-z0-9]+/g, "-");
    const sku = String(8_000_000_000_001 + i);
    const created = iso(BASE - (400 - i) * DAY);
    const p: StoredProduct = {
      _id: stableId(customer, "product", sku),
      customer,
      sku,
      name,
      categories: [category],
      brand: BRANDS[i % BRANDS.length],
      url: normalizeUrl(`/products/${handle}`, cs.settings.storeUrl)!,
      image: `${origin}/uploads/seed/product-${i + 1}.svg`,
      description: `The ${name.toLowerCase()} from ${BRANDS[i % BRANDS.length]}: made to last, easy to care for.`,
      descriptionShort: `${name} by ${BRANDS[i % BRANDS.length]}`,
      keywords: [noun.toLowerCase(), category.toLowerCase()],
      gtin: String(4_006_381_333_931 + i),
      mpn: `MPN-${1000 + i}`,
      status: "active",
      variants: [0, 1, 2].slice(0, 2 + (i % 2)).map((k) => String(45_000_000_000_000 + i * 10 + k)),
      specifications: [
        { name: "Material", value: pick(["Cotton", "Wool", "Leather", "Ceramic", "Recycled polyester"]) },
        { name: "Origin", value: pick(["Portugal", "Vietnam", "Italy", "Mexico"]) },
      ],
      isKit: false,
      created,
      modified: created,
    };
    products.push(p);
    cs.products.set(sku, p);
  }
  products[0].aiSummary = {
    processed: iso(BASE - 2 * DAY),
    text: "Shoppers praise the quality and comfort; a few mention that the size runs slightly small.",
    topics: { quality: "positive", comfort: "positive", size: "negative" },
  };

  // ---- orders -----------------------------------------------------------------------------------
  const users = USERS.map(([name, email], i) => ({ userId: `user-${i + 1}`, email, name }));
  const orders: StoredOrder[] = [];
  const orderCount = Math.max(8, productCount);
  for (let i = 0; i < orderCount; i++) {
    const user = users[i % users.length];
    const orderId = String(1001 + i);
    const version: 1 | 2 = i % 2 === 0 ? 2 : 1;
    const skus = [
      ...new Set([
        products[i % productCount].sku,
        products[(i * 3 + 1) % productCount].sku,
        products[(i * 5 + 2) % productCount].sku,
      ]),
    ];
    const items: OrderItem[] =
      version === 2
        ? skus.map((sku, k) => ({
            productId: sku,
            sku: cs.products.get(sku)!.variants[0],
            skuName: `${cs.products.get(sku)!.name} / ${pick(["S", "M", "L"])}`,
            ...(k === 1 ? { sellerInfo: { id: "seller-1", name: "Marketplace Seller One" } } : {}),
          }))
        : skus.map((sku) => ({ sku }));
    const created = BASE - (200 - i * 7) * DAY;
    const order: StoredOrder = {
      _id: stableId(customer, "order", orderId),
      customer,
      orderId,
      version,
      verificationTokenId: stableId(customer, "vt", orderId),
      status: i === orderCount - 1 ? "shipped" : "delivered",
      userId: user.userId,
      name: user.name,
      email: user.email,
      phone: `+1555010${String(i).padStart(4, "0")}`,
      createdDate: iso(created),
      ...(version === 2 ? { authorizedDate: iso(created + 3_600_000) } : {}),
      deliveredDate: new Date(created + 4 * DAY).toISOString().slice(0, 10),
      pointOfSale: "e-commerce",
      deliveryMethod: "carrier",
      optOutEmail: false,
      optOutSMS: i % 3 === 0,
      optOutWhatsApp: false,
      items,
      __v: 0,
      created: iso(created),
      updated: iso(created),
    };
    orders.push(order);
    cs.orders.set(orderId, order);
  }

  // ---- reviews ----------------------------------------------------------------------------------
  let reviewNo = 0;
  const reviewedPairs = new Set<string>();
  const statuses: ReviewStatus[] = [
    "published",
    "published",
    "published",
    "published",
    "published",
    "published",
    "pending",
  ];
  for (const [pi, p] of products.entries()) {
    const count = pi === 0 ? 9 : int(1, 6);
    for (let k = 0; k < count; k++) {
      reviewNo++;
      const rating = pick([5, 5, 5, 4, 4, 4, 3, 2, 1]);
      const text = rating >= 4 ? pick(GOOD) : rating === 3 ? pick(MEH) : pick(BAD);
      // Verified through an order that contains the product, except the first user's first order,
      // which stays unreviewed for the demo of the rating flows.
      const order = orders.find(
        (o, oi) =>
          oi !== 0 &&
          o.items.some((it) => (it.productId ?? it.sku) === p.sku) &&
          !reviewedPairs.has(`${o.orderId}:${p.sku}`),
      );
      const verified = order !== undefined && rand() < 0.8;
      if (verified) reviewedPairs.add(`${order!.orderId}:${p.sku}`);
      const user = verified ? users.find((u) => u.userId === order!.userId)! : pick(users);
      let status: ReviewStatus = pick(statuses);
      if (reviewNo === 4) status = "removed";
      if (reviewNo === 7) status = "filtered";
      const created = BASE - int(1, 300) * DAY - int(0, 86_399) * 1000;
      const id = stableId(customer, "review", reviewNo);
      const pictures =
        rand() < 0.3
          ? Array.from({ length: int(1, 2) }, (_, n) => ({
              _id: stableId(id, "pic", n),
              fileKey: `seed/review-${reviewNo}-${n + 1}.svg`,
            }))
          : [];
      const item = verified ? order!.items.find((it) => (it.productId ?? it.sku) === p.sku) : undefined;
      const review: StoredReview = {
        _id: id,
        customer,
        sku: p.sku,
        userId: user.userId,
        email: user.email,
        name: `${user.name.split(" ")[0]} ${user.name.split(" ")[1][0]}.`,
        text: reviewNo % 11 === 5 ? "" : text,
        source: pick(["email", "web", "sms", "whatsapp", "sdk"]),
        status,
        rating,
        helpful: status === "published" ? int(0, 12) : 0,
        unhelpful: status === "published" ? int(0, 3) : 0,
        verified,
        recommended: rating >= 4,
        moderationTags: status === "filtered" ? ["forbidden-word"] : [],
        topics: TOPICS.filter(() => rand() < 0.3),
        autoModerated: status === "filtered",
        ...(status === "published" || status === "removed" ? { moderatedAt: iso(created + DAY) } : {}),
        created: iso(created),
        updated: iso(created),
        pictures,
        ...(reviewNo === 2
          ? { video: { fileKey: "seed/review-2-video.mp4", fileName: "review-2-video.mp4", converted: true } }
          : {}),
        attributes:
          rand() < 0.5
            ? [
                { _id: attributes[0]._id, value: Math.max(1, Math.min(5, rating + int(-1, 0))) },
                ...(p.categories.some((c) => attributes[1].categories!.includes(c))
                  ? [{ _id: attributes[1]._id, value: 1, response: attributes[1].choices[1] }]
                  : []),
              ]
            : [],
        reply:
          status === "published" && rand() < 0.35
            ? {
                created: iso(created + 2 * DAY),
                text: `Thank you for your review, ${user.name.split(" ")[0]}!`,
                helpful: int(0, 3),
                unhelpful: 0,
              }
            : null,
        ...(verified
          ? {
              orderId: order!.orderId,
              variantSku: item?.productId ? item.sku : undefined,
              variantName: item?.skuName,
              sellerInfo: item?.sellerInfo,
            }
          : {}),
        updateToken: stableId(id, "update-token"),
        votes: {},
        __v: 0,
      };
      if (reviewNo === 1) {
        // Whatever the PRNG drew, the demo always has a published review with photos and a reply.
        review.status = "published";
        review.moderatedAt = iso(created + DAY);
        review.pictures = [1, 2].map((n) => ({ _id: stableId(id, "pic", n), fileKey: `seed/review-1-${n}.svg` }));
        review.reply = {
          created: iso(created + 2 * DAY),
          text: `Thank you for your review, ${user.name.split(" ")[0]}!`,
          helpful: 1,
          unhelpful: 0,
        };
      }
      cs.putReview(review);
    }
  }
  // One syndicated review on the first product, from a partner store.
  reviewNo++;
  const syndicatedId = stableId(customer, "review", reviewNo);
  cs.putReview({
    _id: syndicatedId,
    customer,
    sku: products[0].sku,
    name: "Sofia R.",
    text: "Very comfortable, I wear it every day.",
    source: "syndication",
    status: "published",
    rating: 5,
    helpful: 2,
    unhelpful: 0,
    verified: true,
    recommended: true,
    moderationTags: [],
    topics: ["comfort"],
    autoModerated: false,
    moderatedAt: iso(BASE - 9 * DAY),
    created: iso(BASE - 10 * DAY),
    updated: iso(BASE - 10 * DAY),
    pictures: [],
    attributes: [],
    reply: null,
    updateToken: stableId(syndicatedId, "update-token"),
    votes: {},
    syndication: {
      sourceCustomer: "partner-store",
      displaySource: "Partner Store",
      logo: null,
      productUrl: "https://partner-store.example/products/classic-t-shirt",
      originalText: "Muy cómoda, la uso todos los días.",
    },
    __v: 0,
  });

  // ---- questions --------------------------------------------------------------------------------
  let questionNo = 0;
  for (const p of products.slice(0, Math.min(4, products.length))) {
    for (const [k, text] of [
      `Is the ${p.name.toLowerCase()} machine washable?`,
      `Does the ${p.name.toLowerCase()} come in other colours?`,
    ].entries()) {
      questionNo++;
      const user = users[questionNo % users.length];
      const created = BASE - int(5, 120) * DAY;
      const status = questionNo === 3 ? "sent" : questionNo === 6 ? "removed" : "published";
      cs.questions.set(stableId(customer, "question", questionNo), {
        _id: stableId(customer, "question", questionNo),
        customer,
        sku: p.sku,
        userId: user.userId,
        email: user.email,
        name: `${user.name.split(" ")[0]} ${user.name.split(" ")[1][0]}.`,
        text,
        status,
        created: iso(created),
        reply:
          status === "published" && k === 0
            ? {
                created: iso(created + DAY),
                text: "Yes, at 30 °C on a gentle cycle.",
                helpful: int(0, 5),
                unhelpful: 0,
              }
            : status === "published"
              ? {
                  created: iso(created + DAY),
                  text: "Two more colours arrive next season.",
                  helpful: int(0, 5),
                  unhelpful: int(0, 1),
                }
              : null,
        __v: 0,
      });
    }
  }

  // ---- NPS ----------------------------------------------------------------------------------------
  const npsCount = Math.min(orders.length, 10);
  for (let i = 0; i < npsCount; i++) {
    const order = orders[i];
    const created = Date.parse(order.created) + 6 * DAY;
    const partial = i === npsCount - 1;
    cs.nps.set(stableId(customer, "nps", i), {
      _id: stableId(customer, "nps", i),
      customer,
      surveyId: stableId(customer, "survey"),
      requestId: stableId(customer, "nps-request", i),
      name: order.name!,
      phone: order.phone!,
      orderId: order.orderId,
      rating: [10, 9, 8, 6, 10, 7, 3, 9, 10, 5][i % 10],
      comment: [
        "Great shop!",
        "Fast delivery.",
        "Good.",
        "Packaging could be better.",
        "",
        "OK",
        "Late delivery.",
        "Nice",
        "Love it",
        "Meh",
      ][i % 10],
      partial,
      created: iso(created),
      ...(partial ? {} : { sendDate: iso(created + 600_000) }),
      __v: 0,
    });
  }

  // ---- store reviews --------------------------------------------------------------------------------
  for (let i = 0; i < 14; i++) {
    const user = users[i % users.length];
    cs.storeReviews.set(stableId(customer, "store-review", i), {
      _id: stableId(customer, "store-review", i),
      customer,
      name: `${user.name.split(" ")[0]} ${user.name.split(" ")[1][0]}.`,
      rating: [5, 4, 5, 3, 5, 2, 4, 5, 5, 4, 1, 5, 4, 5][i],
      text: [
        "Great store.",
        "Good service.",
        "Will buy again!",
        "Average.",
        "Super fast.",
        "Slow shipping.",
        "Nice staff.",
        "Perfect.",
        "Top!",
        "Good prices.",
        "Lost my parcel.",
        "Excellent.",
        "Happy.",
        "Recommended.",
      ][i],
      created: iso(BASE - (60 - i * 4) * DAY),
      status: i === 13 ? "pending" : "published",
      sku: null,
      helpful: int(0, 4),
      unhelpful: 0,
    });
  }

  // ---- group (products 3 and 4 share their reviews) -----------------------------------------------------
  if (products.length >= 4) {
    const id = stableId(customer, "group", 1);
    cs.groups.set(id, {
      _id: id,
      customer,
      name: `${products[2].name} family`,
      skus: [products[2].sku, products[3].sku],
      created: iso(BASE - 30 * DAY),
      __v: 0,
    });
  }

  // ---- top rated: best published average with at least two published reviews -----------------------
  const ranked = [...cs.aggregates]
    .filter(([, a]) => a.publishedCount >= 2)
    .sort(
      ([sa, a], [sb, b]) =>
        b.publishedRatingSum / b.publishedCount - a.publishedRatingSum / a.publishedCount || (sa < sb ? -1 : 1),
    )
    .slice(0, 3)
    .map(([sku]) => sku);
  cs.settings.topRated = { skus: ranked, badgeLabel: "Top rated" };

  const sample = orders[0];
  return {
    customer,
    products: products.map((p) => p.sku),
    orders: orders.length,
    reviews: cs.reviews.size,
    questions: cs.questions.size,
    nps: cs.nps.size,
    storeReviews: cs.storeReviews.size,
    groups: cs.groups.size,
    users,
    sampleOrder: {
      orderId: sample.orderId,
      verificationTokenId: sample.verificationTokenId,
      userId: sample.userId!,
      email: sample.email!,
    },
  };
}
