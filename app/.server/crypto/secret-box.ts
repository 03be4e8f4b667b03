import { createCipheriv, createDecipheriv, createSecretKey, randomBytes, type KeyObject } from "node:crypto";

// AES-256-GCM for secrets at rest (the service's client secret). The stored form names its version
// so the key or algorithm can change later without guessing: "v1:<iv>:<tag>:<ciphertext>", base64.

const VERSION = "v1";

export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SecretBoxError";
  }
}

export function keyFrom(text: string): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, "hex") : Buffer.from(text, "base64");
  if (key.length !== 32) throw new SecretBoxError("encryption key must be 32 bytes");
  return key;
}

// A raw key given to a cipher becomes a KeyObject on every call: a worker opens a secret per job,
// and at 10,000 shops that import showed in its profile. One KeyObject per key Buffer instead.
const keyObjects = new WeakMap<Buffer, KeyObject>();
function keyObject(key: Buffer): KeyObject {
  let made = keyObjects.get(key);
  if (!made) keyObjects.set(key, (made = createSecretKey(key)));
  return made;
}

export function seal(plain: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyObject(key), iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [VERSION, iv.toString("base64"), cipher.getAuthTag().toString("base64"), body.toString("base64")].join(":");
}

export function open(sealed: string, key: Buffer): string {
  const [version, iv, tag, body] = sealed.split(":");
  if (version !== VERSION || !iv || !tag || body === undefined) throw new SecretBoxError("not a sealed secret");
  try {
    const decipher = createDecipheriv("aes-256-gcm", keyObject(key), Buffer.from(iv, "base64"));
    decipher.setAuthTag(Buffer.from(tag, "base64"));
    return Buffer.concat([decipher.update(Buffer.from(body, "base64")), decipher.final()]).toString("utf8");
  } catch {
    // Never echo the input: it is ciphertext of a secret.
    throw new SecretBoxError("secret could not be decrypted (wrong ENCRYPTION_KEY or tampered value)");
  }
}

/** What a person may see of a secret: enough to recognise it, not enough to use it. */
export function mask(secret: string | null | undefined): string {
  if (!secret) return "(none)";
  if (secret.length <= 8) return "••••";
  return `${secret.slice(0, 2)}••••${secret.slice(-2)}`;
}
