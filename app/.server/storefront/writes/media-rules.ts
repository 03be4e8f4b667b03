import type { ShopSettings } from "../../settings";

// Which files a shopper may attach, checked on the server before a presign (the form checks the
// same rules first, from the block's data, so nobody uploads a file that will be refused).

export const PHOTO_TYPES = ["image/jpeg", "image/png", "image/webp", "image/heic"] as const;
export const VIDEO_TYPES = ["video/mp4", "video/quicktime", "video/webm"] as const;
const MB = 1024 * 1024;

export type MediaKind = "photo" | "video";
export type MediaCheck = { ok: true } | { ok: false; error: "type" | "size" | "off" };

export function checkMedia(
  kind: MediaKind,
  mimeType: string,
  fileSize: number,
  s: ShopSettings["storefront"],
): MediaCheck {
  const max = (kind === "photo" ? s.photoMaxMb : s.videoMaxMb) * MB;
  if (max === 0 || (kind === "photo" && s.photosPerReview === 0)) return { ok: false, error: "off" };
  const types: readonly string[] = kind === "photo" ? PHOTO_TYPES : VIDEO_TYPES;
  if (!types.includes(mimeType)) return { ok: false, error: "type" };
  if (!Number.isInteger(fileSize) || fileSize <= 0 || fileSize > max) return { ok: false, error: "size" };
  return { ok: true };
}

/** What the form needs to check files before uploading (rendered into the block). */
export function mediaRules(s: ShopSettings["storefront"]) {
  return {
    photos: s.photosPerReview,
    photoMaxBytes: s.photoMaxMb * MB,
    videoMaxBytes: s.videoMaxMb * MB,
    photoTypes: [...PHOTO_TYPES],
    videoTypes: [...VIDEO_TYPES],
  };
}
