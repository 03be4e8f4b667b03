// The two public shapes of a review: the admin record (Admin API "Review (as returned to the
// administrator)") and the individual review of the Client API summary. Media URLs are computed
// from the file key and the current origin at render time, so a data file survives a port change.
import { reviewProduct } from "./products.view";
import type { CustomerState } from "./store";
import type { StoredReview } from "./types";

export function mediaUrl(origin: string, fileKey: string): string {
  return `${origin}/uploads/${fileKey.split("/").map(encodeURIComponent).join("/")}`;
}

/**
 * `helpfulScore` ("combines usefulness and recency"; the formula is not shown): ten points per net
 * helpful vote plus a recency bonus of 0–10 that fades over 90 days. An integer, as the spec says.
 */
export function helpfulScore(r: StoredReview, nowMs: number): number {
  const ageDays = Math.max(0, (nowMs - Date.parse(r.created)) / 86_400_000);
  const recency = Math.floor(Math.max(0, 90 - ageDays) / 9);
  return 10 * (r.helpful - r.unhelpful) + recency;
}

export function adminReview(r: StoredReview, cs: CustomerState, origin: string, includeOrderData: boolean) {
  const product = cs.products.get(r.sku);
  const record: Record<string, unknown> = {
    _id: r._id,
    customer: r.customer,
    userId: r.userId,
    name: r.name,
    sku: r.sku,
    text: r.text,
    source: r.source,
    status: r.status,
    rating: r.rating,
    helpful: r.helpful,
    unhelpful: r.unhelpful,
    verified: r.verified,
    recommended: r.recommended,
    moderationTags: r.moderationTags,
    created: r.created,
    pictures: r.pictures.map((p) => ({ _id: p._id, url: mediaUrl(origin, p.fileKey) })),
    attributes: r.attributes.map((a) => {
      const def = cs.attributes.get(a._id);
      return {
        _id: a._id,
        title: def?.title,
        type: def?.type,
        scaleMin: def?.scaleMin,
        scaleMax: def?.scaleMax,
        value: a.value,
        ...(a.response !== undefined ? { response: a.response } : {}),
      };
    }),
    product: product ? reviewProduct(product) : null,
    __v: r.__v,
    // Beyond the table, implied by the query parameters (order by moderatedAt, hasReply,
    // hasVideo, topics, autoModerated).
    updated: r.updated,
    moderatedAt: r.moderatedAt ?? null,
    autoModerated: r.autoModerated,
    topics: r.topics,
    reply: r.reply,
    video: r.video ? { url: mediaUrl(origin, r.video.fileKey), fileName: r.video.fileName } : null,
  };
  if (includeOrderData) {
    const order = r.orderId ? cs.orders.get(r.orderId) : undefined;
    record.orderId = r.orderId ?? null;
    record.sellerInfo = r.sellerInfo ?? null;
    record.orderName = order?.name ?? null;
    record.orderEmail = order?.email ?? null;
    record.orderPhone = order?.phone ?? null;
    record.variantSku = r.variantSku ?? null;
    record.variantName = r.variantName ?? null;
  }
  return record;
}

export function clientReview(
  r: StoredReview,
  cs: CustomerState,
  origin: string,
  nowMs: number,
  productReviewed: { sku: string; name: string; url: string | null } | null = null,
) {
  return {
    _id: r._id,
    sku: r.sku,
    name: r.name,
    text: r.text,
    customer: r.customer,
    status: r.status,
    rating: r.rating,
    helpful: r.helpful,
    unhelpful: r.unhelpful,
    verified: r.verified,
    recommended: r.recommended,
    created: r.created,
    updated: r.updated,
    pictures: r.pictures.map((p) => {
      const url = mediaUrl(origin, p.fileKey);
      return { _id: p._id, url, thumb: url };
    }),
    ...(r.video
      ? {
          video: {
            url: mediaUrl(origin, r.video.fileKey),
            thumb: `${mediaUrl(origin, r.video.fileKey)}?thumb=1`,
            fileName: r.video.fileName,
            fileKey: r.video.fileKey,
            converted: r.video.converted,
          },
        }
      : {}),
    hasPicture: r.pictures.length > 0,
    hasVideo: r.video !== undefined,
    helpfulScore: helpfulScore(r, nowMs),
    attributes: r.attributes.flatMap((a): Record<string, unknown>[] => {
      const def = cs.attributes.get(a._id);
      if (!def) return [];
      return def.type === "stars"
        ? [{ title: def.title, value: a.value, type: def.type, scaleMin: def.scaleMin, scaleMax: def.scaleMax }]
        : [{ title: def.title, value: a.value, type: def.type, response: a.response ?? def.choices[a.value] }];
    }),
    reply: r.reply ?? null,
    productReviewed,
    syndicationSourceCustomer: r.syndication?.sourceCustomer ?? null,
    syndicationDisplaySource: r.syndication?.displaySource ?? null,
    syndicationSourceLogo: r.syndication?.logo ?? null,
    syndicationSourceProductUrl: r.syndication?.productUrl ?? null,
    syndicationOriginalText: r.syndication?.originalText ?? null,
  };
}
