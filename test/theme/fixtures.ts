import { join } from "node:path";
import { snapshotSchema, type Snapshot, type SnapshotReview } from "../../app/.server/theme/snapshot";
import { appDrop, productDrop, type RawMetafield } from "../../app/.server/storefront/liquid";

// Products and snapshots shaped as the back-sync writes them (validated by the snapshot schema), for
// rendering the extension's blocks in tests and screenshots.

export const EXTENSION_DIR = join(import.meta.dirname, "../../extensions/reviews-theme");
export const MEDIA_HOST = "https://media.reviews.test";
export const PRODUCT_ID = 8012345678901;

const names = ["Ana Souza", "Mark Thompson", "Lucía Romero", "Priya N.", "Jonas K.", "Chloé Martin", "Tomás G.", ""];
const texts = [
  "Sturdy, keeps coffee hot for ages and the glaze is even nicer in person.\nWould buy again.",
  "Good mug. The handle is a little small for my hand.",
  "Arrived well packed and it is beautiful.",
  "",
  "Arrived a day late but the quality makes up for it.",
];

export function review(i: number, over: Partial<SnapshotReview> = {}): SnapshotReview {
  const rating = [5, 4, 5, 3, 5, 2, 4, 1][i % 8];
  return {
    id: `r${String(i).padStart(4, "0")}a1b2`,
    name: names[i % names.length],
    date: new Date(Date.UTC(2026, 9, 30) - i * 86_400_000 * 3).toISOString(),
    rating,
    text: texts[i % texts.length],
    verified: i % 3 !== 2,
    recommended: rating >= 4 ? true : rating <= 2 ? false : null,
    helpful: (i * 7) % 11,
    unhelpful: i % 2,
    pictures:
      i % 4 === 0
        ? [
            { url: `${MEDIA_HOST}/p/${i}-1.jpg`, thumb: `${MEDIA_HOST}/t/${i}-1.jpg` },
            { url: `${MEDIA_HOST}/p/${i}-2.jpg`, thumb: `${MEDIA_HOST}/t/${i}-2.jpg` },
          ]
        : [],
    video: i % 5 === 1 ? { url: `${MEDIA_HOST}/v/${i}.mp4`, thumb: `${MEDIA_HOST}/t/${i}-v.jpg` } : null,
    reply:
      i % 4 === 1
        ? { text: "Thanks Mark! A larger handle is coming in the spring collection.", date: "2026-10-29T09:00:00.000Z" }
        : null,
    source:
      i % 6 === 2
        ? {
            name: "Casa Cerâmica",
            logo: `${MEDIA_HOST}/logo/casa.png`,
            url: "https://casa-ceramica.example/products/mug",
          }
        : null,
    original: i % 6 === 2 ? "Llegó bien embalada y es preciosa." : null,
    ...over,
  };
}

/** A snapshot of `count` reviews whose first page (up to pageSize) is in it. */
export function snapshot(count: number, over: Partial<Snapshot> = {}): Snapshot {
  const pageSize = over.pageSize ?? 5;
  const byRating = [0, 0, 0, 0, 0];
  for (let i = 0; i < count; i++) byRating[5 - review(i).rating]++;
  const pct = (n: number) => (count ? Math.round((n / count) * 100) : 0);
  const s: Snapshot = {
    v: 1,
    sku: String(PRODUCT_ID),
    avg: count
      ? Math.round(
          (Array.from({ length: count }, (_, i) => review(i).rating).reduce((a, b) => a + b, 0) / count) * 10,
        ) / 10
      : 0,
    count,
    composition: [5, 4, 3, 2, 1].map((rating, k) => ({ rating, count: byRating[k], pct: pct(byRating[k]) })),
    recommendedPct: count ? 86 : null,
    summary: count
      ? {
          text: "Customers love the glaze and how well the mug keeps drinks hot. Some find the handle small.",
          positive: ["glaze", "heat retention"],
          negative: ["handle size"],
        }
      : null,
    attributes: count
      ? [
          { name: "Quality", type: "stars", avg: 4.6, scaleMin: 1, scaleMax: 5, pct: 90 },
          { name: "Value", type: "stars", avg: 4.0, scaleMin: 1, scaleMax: 5, pct: 75 },
        ]
      : [],
    topics: count
      ? [
          { name: "glaze", count: Math.ceil(count / 3) },
          { name: "handle", count: Math.ceil(count / 5) },
          { name: "delivery", count: Math.ceil(count / 9) },
        ]
      : [],
    sources:
      count > 2
        ? [
            { id: "acme-store", name: "Acme Ceramics", logo: null },
            { id: "casa-ceramica", name: "Casa Cerâmica", logo: `${MEDIA_HOST}/logo/casa.png` },
          ]
        : [],
    counts: {
      text: count,
      pictures: Math.ceil(count / 4),
      videos: Math.ceil(count / 5),
      verified: count - Math.floor(count / 3),
    },
    reviews: Array.from({ length: Math.min(count, pageSize) }, (_, i) => review(i)),
    pageSize,
    shortened: false,
    ...over,
  };
  return snapshotSchema.parse(s);
}

export function productWith(s: Snapshot | null, extra: RawMetafield[] = []) {
  const metafields: RawMetafield[] = [...extra];
  if (s) {
    metafields.push({ namespace: "$app:reviews", key: "snapshot", type: "json", value: JSON.stringify(s) });
    if (s.count > 0) {
      metafields.push({
        namespace: "reviews",
        key: "rating",
        type: "rating",
        value: JSON.stringify({ value: s.avg.toFixed(1), scale_min: "1.0", scale_max: "5.0" }),
      });
      metafields.push({ namespace: "reviews", key: "rating_count", type: "number_integer", value: String(s.count) });
    }
  }
  return productDrop({
    id: `gid://shopify/Product/${PRODUCT_ID}`,
    handle: "stoneware-mug",
    title: "Stoneware Mug",
    metafields,
  });
}

export const shop = { url: "https://acme-ceramics.myshopify.com", name: "Acme Ceramics", locale: "en" };
export const app = appDrop([
  {
    namespace: "reviews",
    key: "shop",
    type: "json",
    value: JSON.stringify({
      v: 1,
      proxyPath: "/apps/reviews",
      store: null,
      topRated: { skus: [], label: "" },
      rateUrl: null,
      customer: "acme",
    }),
  },
]);
