// Client API review writes: submission, photo and video upload (presign → PUT → confirm),
// attributes and helpful marks.
//
// Choices where the spec says "not shown" (also in README.md):
// - Submission: stored with admin status `pending` and answered as `sent`; text containing a
//   forbidden word is stored and answered as `filtered` (autoModerated, tag `forbidden-word`).
//   `recommended` defaults to rating >= 4; `source` defaults to `sdk`. Status 200.
// - No identification pair → 400. With `verificationTokenId`, `orderId` is required (400); a token
//   that does not match the order → 403; a SKU not among the order's reviewable items → 400; a
//   second review of the same product through the same order → 409 `duplicate`.
// - The SKU must be in the catalog (404 otherwise), except for a verified review of an item of the
//   order. The reviewer name of a verified review is the order's name, abbreviated ("Jane D.").
// - Media: wrong or missing `updateToken` → 403; unknown review (or review of another SKU) → 404.
//   Photos: image/jpeg, image/png, image/webp, image/gif, image/heic up to 10 MB. Video:
//   video/mp4, video/quicktime, video/webm up to 100 MB. Others → 400. Presigned URLs live 15 min.
//   `confirmUrl` is a path relative to {base_url}. One URL per presign call.
// - Confirm of a key that was not uploaded → 400. Confirm, attributes, like and dislike answer the
//   review in its Client API shape. A new video replaces the previous one.
// - Helpful marks: `userId` or `email` (at least one) identifies the voter; one vote per voter and
//   review (a second like is a no-op, a dislike after a like moves the vote). Only published
//   reviews can be marked (404 otherwise).
import { createHmac } from "node:crypto";
import { z } from "zod";
import { badRequest, conflict, forbidden, json, notFound, parseWith } from "./http";
import { newId, randomToken } from "./ids";
import type { Route } from "./router";
import { clientCustomer, type Ctx, type Services } from "./services";
import { containsForbiddenWord, displayName } from "./client-common";
import { abbreviateName, itemProductSku, reviewableItems } from "./orders.rules";
import { clientReview } from "./reviews.view";
import type { CustomerState } from "./store";
import type { AttributeDefinition, OrderItem, StoredOrder, StoredReview, StoredUpload } from "./types";

export const PICTURE_TYPES: Record<string, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
  "image/gif": "gif",
  "image/heic": "heic",
};
export const VIDEO_TYPES: Record<string, string> = {
  "video/mp4": "mp4",
  "video/quicktime": "mov",
  "video/webm": "webm",
};
export const MAX_PICTURE_BYTES = 10 * 1024 * 1024;
export const MAX_VIDEO_BYTES = 100 * 1024 * 1024;
export const PRESIGN_TTL_MS = 15 * 60 * 1000;

const nonEmpty = z.string().refine((s) => s.trim().length > 0, "must be a non-empty string");

const submitSchema = z.object({
  userId: z.string().optional(),
  email: z.string().optional(),
  verificationTokenId: z.string().optional(),
  orderId: z.string().optional(),
  rating: z.number({ error: "rating is required (integer 1 to 5)" }).int("rating must be an integer").min(1).max(5),
  text: z.string().optional(),
  recommended: z.boolean().optional(),
  source: z.string().optional(),
  name: z.string().optional(),
});

export function availableAttributes(cs: CustomerState, categories: string[]): AttributeDefinition[] {
  return [...cs.attributes.values()]
    .filter((a) => a.categories === null || a.categories.some((c) => categories.includes(c)))
    .sort((a, b) => a.order - b.order);
}

function categoriesOf(cs: CustomerState, sku: string, item?: OrderItem): string[] {
  const p = cs.products.get(sku);
  if (p) return p.categories;
  const pd = item?.productData;
  return pd?.categories ?? (pd?.categoryName ? [pd.categoryName] : []);
}

export function submitReview(
  cs: CustomerState,
  sku: string,
  body: unknown,
  services: Pick<Services, "clock">,
): StoredReview {
  const input = parseWith(submitSchema, body ?? {});
  const now = services.clock.iso();
  let order: StoredOrder | undefined;
  let item: OrderItem | undefined;
  if (input.verificationTokenId !== undefined) {
    if (!input.orderId) throw badRequest("orderId is required when verificationTokenId is sent");
    order = cs.orders.get(input.orderId);
    if (!order || order.verificationTokenId !== input.verificationTokenId) {
      throw forbidden("verificationTokenId does not match the order");
    }
    item = reviewableItems(order).find((i) => itemProductSku(i) === sku);
    if (!item) throw badRequest(`product ${sku} is not a reviewable item of order ${order.orderId}`);
    const already = cs.reviewsOf(sku).some((r) => r.orderId === order!.orderId);
    if (already) throw conflict(`product ${sku} of order ${order.orderId} was already reviewed`, "duplicate");
  } else if (!(input.userId?.trim() && input.email?.trim())) {
    throw badRequest("identify the reviewer with userId + email, or verificationTokenId + orderId");
  }
  if (!cs.products.has(sku) && !item) throw notFound(`product ${sku} not found`);

  const text = (input.text ?? "").trim();
  const filtered = containsForbiddenWord(cs, text);
  const review: StoredReview = {
    _id: newId(services.clock.now()),
    customer: cs.customer,
    sku,
    userId: order?.userId ?? input.userId,
    email: order?.email ?? input.email,
    name: order ? abbreviateName(order.name) || displayName(cs, input) : displayName(cs, input),
    text,
    source: input.source ?? "sdk",
    status: filtered ? "filtered" : "pending",
    rating: input.rating,
    helpful: 0,
    unhelpful: 0,
    verified: order !== undefined,
    recommended: input.recommended ?? input.rating >= 4,
    moderationTags: filtered ? ["forbidden-word"] : [],
    topics: [],
    autoModerated: filtered,
    created: now,
    updated: now,
    pictures: [],
    attributes: [],
    reply: null,
    orderId: order?.orderId,
    variantSku: item?.sku,
    variantName: item?.skuName,
    sellerInfo: item?.sellerInfo,
    updateToken: randomToken(24),
    votes: {},
    __v: 0,
  };
  cs.putReview(review);
  return review;
}

function submit(ctx: Ctx) {
  const cs = clientCustomer(ctx);
  const sku = ctx.params.sku;
  const review = submitReview(cs, sku, ctx.body, ctx.services);
  ctx.services.store.changed();
  const item = review.orderId ? cs.orders.get(review.orderId)?.items.find((i) => itemProductSku(i) === sku) : undefined;
  return json(200, {
    _id: review._id,
    status: review.status === "pending" ? "sent" : review.status,
    created: review.created,
    customer: review.customer,
    userId: review.userId,
    name: review.name,
    sku: review.sku,
    text: review.text,
    recommended: review.recommended,
    rating: review.rating,
    verified: review.verified,
    helpful: review.helpful,
    unhelpful: review.unhelpful,
    availableAttributes: availableAttributes(cs, categoriesOf(cs, sku, item)),
    updateToken: review.updateToken,
  });
}

/** The review of the path, checked against the `updateToken` of the body. */
function ownedReview(ctx: Ctx, token: unknown): { cs: CustomerState; review: StoredReview } {
  const cs = clientCustomer(ctx);
  const review = cs.reviews.get(ctx.params.reviewId);
  if (!review || review.sku !== ctx.params.sku) throw notFound(`review ${ctx.params.reviewId} not found`);
  if (typeof token !== "string" || token !== review.updateToken)
    throw forbidden("updateToken does not match the review");
  return { cs, review };
}

function tokenOf(body: unknown): unknown {
  return typeof body === "object" && body !== null ? (body as { updateToken?: unknown }).updateToken : undefined;
}

export function signUpload(secret: string, fileKey: string, mimeType: string, expires: number): string {
  return createHmac("sha256", secret).update(`${fileKey}\n${mimeType}\n${expires}`).digest("base64url");
}

const presignSchema = z.object({
  updateToken: z.string(),
  mimeType: z.string({ error: "mimeType is required" }),
  fileSize: z.number({ error: "fileSize (bytes) is required" }).int().positive(),
});

function presign(ctx: Ctx, kind: "picture" | "video") {
  const { cs, review } = ownedReview(ctx, tokenOf(ctx.body));
  const input = parseWith(presignSchema, ctx.body);
  const types = kind === "picture" ? PICTURE_TYPES : VIDEO_TYPES;
  const max = kind === "picture" ? MAX_PICTURE_BYTES : MAX_VIDEO_BYTES;
  const ext = types[input.mimeType.toLowerCase()];
  if (!ext) throw badRequest(`mimeType must be one of ${Object.keys(types).join(", ")}`, "unsupported_media_type");
  if (input.fileSize > max) throw badRequest(`fileSize must be at most ${max} bytes`, "file_too_large");
  const { clock, urls, uploadSecret } = ctx.services;
  const expiresAt = clock.now() + PRESIGN_TTL_MS;
  const upload: StoredUpload = {
    fileKey: `reviews/${review._id}/${randomToken(12)}.${ext}`,
    customer: cs.customer,
    reviewId: review._id,
    kind,
    mimeType: input.mimeType.toLowerCase(),
    fileSize: input.fileSize,
    expiresAt: new Date(expiresAt).toISOString(),
    uploaded: false,
    attached: false,
  };
  cs.uploads.set(upload.fileKey, upload);
  ctx.services.store.changed();
  const expires = Math.floor(expiresAt / 1000);
  const signature = signUpload(uploadSecret, upload.fileKey, upload.mimeType, expires);
  const segment = kind === "picture" ? "pictures" : "video";
  return {
    uploadUrl: `${urls.origin}/uploads/${upload.fileKey}?expires=${expires}&signature=${signature}`,
    confirmUrl: `/${encodeURIComponent(cs.customer)}/${encodeURIComponent(review.sku)}/review/${review._id}/${segment}/confirm`,
    fileKey: upload.fileKey,
  };
}

function uploadedFor(cs: CustomerState, review: StoredReview, key: string, kind: "picture" | "video"): StoredUpload {
  const upload = cs.uploads.get(key);
  if (!upload || upload.reviewId !== review._id || upload.kind !== kind) {
    throw badRequest(`${key} was not presigned for this review's ${kind}s`, "unknown_file");
  }
  if (!upload.uploaded) throw badRequest(`${key} has not been uploaded yet`, "not_uploaded");
  return upload;
}

const confirmPicturesSchema = z.object({
  updateToken: z.string(),
  keys: z.array(nonEmpty).min(1, "keys must not be empty"),
});

function confirmPictures(ctx: Ctx) {
  const { cs, review } = ownedReview(ctx, tokenOf(ctx.body));
  const input = parseWith(confirmPicturesSchema, ctx.body);
  const uploads = input.keys.map((k) => uploadedFor(cs, review, k, "picture"));
  const next = structuredClone(review);
  for (const u of uploads) {
    if (!next.pictures.some((p) => p.fileKey === u.fileKey))
      next.pictures.push({ _id: newId(ctx.services.clock.now()), fileKey: u.fileKey });
    u.attached = true;
  }
  return saveAndRender(ctx, cs, next);
}

const confirmVideoSchema = z.object({ updateToken: z.string(), key: nonEmpty });

function confirmVideo(ctx: Ctx) {
  const { cs, review } = ownedReview(ctx, tokenOf(ctx.body));
  const input = parseWith(confirmVideoSchema, ctx.body);
  const upload = uploadedFor(cs, review, input.key, "video");
  upload.attached = true;
  const next = structuredClone(review);
  next.video = { fileKey: upload.fileKey, fileName: upload.fileKey.split("/").pop()!, converted: true };
  return saveAndRender(ctx, cs, next);
}

const attributesSchema = z.object({
  updateToken: z.string(),
  attributes: z
    .array(z.object({ _id: nonEmpty, value: z.number().int(), response: z.string().optional() }))
    .min(1, "attributes must not be empty"),
});

function sendAttributes(ctx: Ctx) {
  const { cs, review } = ownedReview(ctx, tokenOf(ctx.body));
  const input = parseWith(attributesSchema, ctx.body);
  const order = review.orderId ? cs.orders.get(review.orderId) : undefined;
  const item = order?.items.find((i) => itemProductSku(i) === review.sku);
  const allowed = new Map(availableAttributes(cs, categoriesOf(cs, review.sku, item)).map((a) => [a._id, a]));
  const next = structuredClone(review);
  for (const a of input.attributes) {
    const def = allowed.get(a._id);
    if (!def) throw badRequest(`attribute ${a._id} is not available for this product`);
    let response: string | undefined;
    if (def.type === "stars") {
      if (a.value < def.scaleMin || a.value > def.scaleMax) {
        throw badRequest(`attribute ${a._id}: value must be ${def.scaleMin} to ${def.scaleMax}`);
      }
    } else {
      if (a.value < 0 || a.value >= def.choices.length) {
        throw badRequest(`attribute ${a._id}: value must be a choice index 0 to ${def.choices.length - 1}`);
      }
      if (a.response !== undefined && a.response !== def.choices[a.value]) {
        throw badRequest(`attribute ${a._id}: response does not match choice ${a.value}`);
      }
      response = def.choices[a.value];
    }
    next.attributes = next.attributes.filter((x) => x._id !== a._id);
    next.attributes.push({ _id: a._id, value: a.value, ...(response !== undefined ? { response } : {}) });
  }
  return saveAndRender(ctx, cs, next);
}

const voteSchema = z.object({ userId: z.string().optional(), email: z.string().optional() });

function vote(ctx: Ctx, direction: 1 | -1) {
  const cs = clientCustomer(ctx);
  const review = cs.reviews.get(ctx.params.reviewId);
  if (!review || review.sku !== ctx.params.sku || review.status !== "published") {
    throw notFound(`review ${ctx.params.reviewId} not found`);
  }
  const input = parseWith(voteSchema, ctx.body ?? {});
  const userId = input.userId?.trim() ?? "";
  const email = input.email?.trim().toLowerCase() ?? "";
  if (!userId && !email) throw badRequest("userId or email is required");
  const voter = `${userId}|${email}`;
  const next = structuredClone(review);
  const previous = next.votes[voter];
  if (previous !== direction) {
    if (previous === 1) next.helpful--;
    if (previous === -1) next.unhelpful--;
    if (direction === 1) next.helpful++;
    else next.unhelpful++;
    next.votes[voter] = direction;
  }
  return saveAndRender(ctx, cs, next, previous !== direction);
}

function saveAndRender(ctx: Ctx, cs: CustomerState, next: StoredReview, changed = true) {
  if (changed) {
    next.updated = ctx.services.clock.iso();
    next.__v++;
    cs.putReview(next);
    ctx.services.store.changed();
  }
  return json(200, clientReview(next, cs, ctx.services.urls.origin, ctx.services.clock.now()));
}

function presignPictures(ctx: Ctx) {
  return json(200, { urls: [presign(ctx, "picture")] });
}

function presignVideo(ctx: Ctx) {
  return json(200, presign(ctx, "video"));
}

const base = "/api/:customer/:sku/review/:reviewId";
export const clientReviewRoutes: Route<Services>[] = [
  { method: "POST", pattern: "/api/:customer/:sku/review", auth: "none", cors: true, handler: submit },
  { method: "POST", pattern: `${base}/pictures/presign`, auth: "none", cors: true, handler: presignPictures },
  { method: "POST", pattern: `${base}/pictures/confirm`, auth: "none", cors: true, handler: confirmPictures },
  { method: "POST", pattern: `${base}/video/presign`, auth: "none", cors: true, handler: presignVideo },
  { method: "POST", pattern: `${base}/video/confirm`, auth: "none", cors: true, handler: confirmVideo },
  { method: "POST", pattern: `${base}/attributes`, auth: "none", cors: true, handler: sendAttributes },
  { method: "POST", pattern: `${base}/like`, auth: "none", cors: true, handler: (ctx) => vote(ctx, 1) },
  { method: "POST", pattern: `${base}/dislike`, auth: "none", cors: true, handler: (ctx) => vote(ctx, -1) },
];
