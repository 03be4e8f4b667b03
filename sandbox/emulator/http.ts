// HTTP primitives shared by every resource module: the reply type handlers return, the typed error
// they throw, request body reading with a byte cap, and query-string parsing helpers that turn bad
// input into 400s instead of silently ignoring it.
import type { IncomingMessage } from "node:http";
import type { z } from "zod";

export type Reply =
  | { status: number; json: unknown; headers?: Record<string, string> }
  | { status: number; empty: true; headers?: Record<string, string> }
  | { status: number; html: string; headers?: Record<string, string> }
  | { status: number; bytes: Buffer; contentType: string; headers?: Record<string, string> };

export const json = (status: number, body: unknown, headers?: Record<string, string>): Reply => ({
  status,
  json: body,
  headers,
});

/** "No body; 200 means success" operations of the spec. */
export const noBody = (status = 200): Reply => ({ status, empty: true });

/** An error the caller can act on: the status and the `{error, message}` body the spec uses. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly label: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  toReply(): Reply {
    return json(this.status, { error: this.label, message: this.message, ...this.extra }, this.headers);
  }
}

export const badRequest = (message: string, label = "invalid_request") => new HttpError(400, label, message);
export const notFound = (message: string) => new HttpError(404, "not_found", message);
export const forbidden = (message: string) => new HttpError(403, "forbidden", message);
export const conflict = (message: string, label = "conflict") => new HttpError(409, label, message);

/** One readable line from a zod failure: "products.0.brand: expected string, received number". */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => {
      const path = issue.path.map(String).join(".");
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join("; ");
}

export function parseWith<T>(schema: z.ZodType<T>, value: unknown, label = "invalid_request"): T {
  const result = schema.safeParse(value);
  if (!result.success) throw badRequest(describeZodError(result.error), label);
  return result.data;
}

export type BodyResult = { ok: true; bytes: Buffer } | { ok: false; received: number };

/**
 * Reads the request body and stops buffering at `limit` bytes: past it, the rest is read and thrown
 * away, and the promise resolves `{ok: false}` when the body ends, so that the 413 reaches a client
 * still uploading (an early answer on a closing connection reads as a reset to most clients).
 */
export function readBody(req: IncomingMessage, limit: number): Promise<BodyResult> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received <= limit) {
        chunks.push(chunk);
        return;
      }
      cleanup();
      chunks.length = 0;
      discardRest(req, DISCARD_CAP, () => resolve({ ok: false, received }));
    };
    const onEnd = () => {
      cleanup();
      resolve({ ok: true, bytes: Buffer.concat(chunks) });
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    const cleanup = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
  });
}

/**
 * Lets the rest of a rejected body flow without buffering it, so the client can read our early
 * answer; a client that keeps sending past `cap` more bytes has its connection cut.
 */
/** How much of an oversized body is read (and dropped) before the connection is cut instead. */
export const DISCARD_CAP = 256 * 1024 * 1024;

export function discardRest(req: IncomingMessage, cap: number, onEnd?: () => void): void {
  let extra = 0;
  req.on("data", (chunk: Buffer) => {
    extra += chunk.length;
    if (extra > cap) req.socket.destroy();
  });
  if (onEnd) req.on("end", onEnd);
  req.on("error", () => {});
  req.resume();
}

// ---- query helpers ------------------------------------------------------------------------------

export function queryString(q: URLSearchParams, name: string): string | undefined {
  const v = q.get(name);
  return v === null || v === "" ? undefined : v;
}

export function queryInt(
  q: URLSearchParams,
  name: string,
  opts: { min?: number; max?: number; fallback?: number } = {},
): number | undefined {
  const raw = queryString(q, name);
  if (raw === undefined) return opts.fallback;
  if (!/^-?\d+$/.test(raw)) throw badRequest(`${name} must be an integer`);
  const n = Number(raw);
  if (opts.min !== undefined && n < opts.min) throw badRequest(`${name} must be >= ${opts.min}`);
  if (opts.max !== undefined && n > opts.max) throw badRequest(`${name} must be <= ${opts.max}`);
  return n;
}

/** `true`/`false` (also 1/0); anything else is a 400 rather than a silently ignored filter. */
export function queryBool(q: URLSearchParams, name: string): boolean | undefined {
  const raw = queryString(q, name);
  if (raw === undefined) return undefined;
  const v = raw.toLowerCase();
  if (v === "true" || v === "1") return true;
  if (v === "false" || v === "0") return false;
  throw badRequest(`${name} must be true or false`);
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** `YYYY-MM-DD` → start (or end) of that UTC day in ms. */
export function queryDay(q: URLSearchParams, name: string, edge: "start" | "end"): number | undefined {
  const raw = queryString(q, name);
  if (raw === undefined) return undefined;
  const ms = parseDay(raw, edge);
  if (ms === undefined) throw badRequest(`${name} must be a date YYYY-MM-DD`);
  return ms;
}

export function parseDay(raw: string, edge: "start" | "end"): number | undefined {
  const m = DAY.exec(raw);
  if (!m) return undefined;
  const start = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  const check = new Date(start);
  if (check.getUTCDate() !== Number(m[3]) || check.getUTCMonth() !== Number(m[2]) - 1) return undefined;
  return edge === "start" ? start : start + 86_400_000 - 1;
}

/** `field,direction` with direction 1/-1 (Admin API form). */
export function parseFieldDirection(
  raw: string | undefined,
  fields: readonly string[],
  fallback: { field: string; dir: 1 | -1 },
  name = "order",
): { field: string; dir: 1 | -1 } {
  if (raw === undefined) return fallback;
  const [field, dirRaw = "-1"] = raw.split(",").map((s) => s.trim());
  if (!fields.includes(field)) throw badRequest(`${name} field must be one of ${fields.join(", ")}`);
  if (dirRaw !== "1" && dirRaw !== "-1") throw badRequest(`${name} direction must be 1 or -1`);
  return { field, dir: dirRaw === "1" ? 1 : -1 };
}

export function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === undefined || a === null) return -1;
  if (b === undefined || b === null) return 1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

export function round(n: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}
