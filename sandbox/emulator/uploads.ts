// The local stand-in for the object storage behind presigned upload URLs:
// `PUT {origin}/uploads/{fileKey}?expires=…&signature=…` stores the bytes, `GET` serves them.
//
// Like a presigned S3 PUT, the signature covers the key, the MIME type and the expiry: a wrong or
// expired signature, or a `Content-Type` other than the presigned `mimeType`, answers 403. A body
// whose size differs from the presigned `fileSize` answers 400 (`size_mismatch`). Success is 200
// with an empty body and an `ETag`, as object stores answer. Bytes live in memory only.
import { createHash, timingSafeEqual } from "node:crypto";
import { HttpError, noBody, notFound, type Reply } from "./http";
import type { Route } from "./router";
import type { Ctx, Services } from "./services";
import { signUpload } from "./client-reviews";
import type { StoredUpload } from "./types";

function findUpload(services: Services, fileKey: string): StoredUpload | undefined {
  for (const name of services.store.customers()) {
    const u = services.store.customer(name).uploads.get(fileKey);
    if (u) return u;
  }
  return undefined;
}

function put(ctx: Ctx): Reply {
  const key = ctx.params.key;
  const upload = findUpload(ctx.services, key);
  if (!upload) throw new HttpError(403, "access_denied", "no presigned upload for this key");
  const expires = Number(ctx.query.get("expires"));
  const signature = ctx.query.get("signature") ?? "";
  const expected = signUpload(ctx.services.uploadSecret, key, upload.mimeType, expires);
  const a = Buffer.from(signature);
  const b = Buffer.from(expected);
  if (a.length !== b.length || !timingSafeEqual(a, b)) {
    throw new HttpError(403, "signature_mismatch", "the upload URL signature is not valid");
  }
  if (ctx.services.clock.now() > expires * 1000) throw new HttpError(403, "expired", "the upload URL has expired");
  const contentType = String(ctx.headers["content-type"] ?? "")
    .split(";")[0]
    .trim()
    .toLowerCase();
  if (contentType !== upload.mimeType) {
    throw new HttpError(403, "signature_mismatch", `Content-Type must be ${upload.mimeType} (as presigned)`);
  }
  if (ctx.rawBody.length !== upload.fileSize) {
    throw new HttpError(400, "size_mismatch", `expected ${upload.fileSize} bytes, received ${ctx.rawBody.length}`);
  }
  ctx.services.store.uploadBytes.set(key, { bytes: ctx.rawBody, contentType });
  upload.uploaded = true;
  upload.uploadedSize = ctx.rawBody.length;
  ctx.services.store.changed();
  const reply = noBody();
  reply.headers = { ETag: `"${createHash("md5").update(ctx.rawBody).digest("hex")}"` };
  return reply;
}

/** A placeholder picture, for seed photos and video thumbnails (no binary assets in the repo). */
export function placeholderSvg(label: string, hue: number): string {
  const safe = label.replace(/[<>&"']/g, "");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300" viewBox="0 0 400 300"><rect width="400" height="300" fill="hsl(${hue},45%,75%)"/><text x="200" y="160" font-family="sans-serif" font-size="24" text-anchor="middle" fill="#333">${safe}</text></svg>`;
}

function get(ctx: Ctx): Reply {
  const key = ctx.params.key;
  const stored = ctx.services.store.uploadBytes.get(key);
  const hue = [...key].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 360, 0);
  const upload = findUpload(ctx.services, key);
  if (ctx.query.get("thumb") === "1" && upload?.kind === "video") {
    return { status: 200, bytes: Buffer.from(placeholderSvg("video", hue)), contentType: "image/svg+xml" };
  }
  if (stored) return { status: 200, bytes: stored.bytes, contentType: stored.contentType };
  if (key.startsWith("seed/")) {
    return {
      status: 200,
      // A shopper sees this picture: it says what it is, never the file's key.
      bytes: Buffer.from(placeholderSvg("photo", hue)),
      contentType: "image/svg+xml",
    };
  }
  throw notFound(`no file ${key}`);
}

export const uploadRoutes: Route<Services>[] = [
  { method: "PUT", pattern: "/uploads/*key", auth: "none", body: "raw", cors: true, handler: put },
  { method: "GET", pattern: "/uploads/*key", auth: "none", body: "raw", cors: true, handler: get },
];
