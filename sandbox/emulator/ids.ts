// Identifiers in the service's style: `_id` values look like MongoDB ObjectIds (24 hex chars) and
// tokens are opaque random strings.
import { createHash, randomBytes } from "node:crypto";

let counter = randomBytes(3).readUIntBE(0, 3);

/** 24 hex chars: 4 bytes of seconds, 5 random bytes, 3 bytes of counter (the ObjectId layout). */
export function newId(nowMs = Date.now()): string {
  counter = (counter + 1) % 0xffffff;
  const ts = Math.floor(nowMs / 1000)
    .toString(16)
    .padStart(8, "0")
    .slice(-8);
  return ts + randomBytes(5).toString("hex") + counter.toString(16).padStart(6, "0");
}

/** A deterministic ObjectId-like id, for seed data that must be the same on every run. */
export function stableId(...parts: (string | number)[]): string {
  return createHash("sha256").update(parts.join("\u0000")).digest("hex").slice(0, 24);
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}
