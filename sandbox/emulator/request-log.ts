// The log of requests received on the service paths (everything except `/__emulator`), for tests
// that assert what a client sent. Secrets never enter it: the Authorization, Cookie and
// Proxy-Authorization headers and any `client_secret`/`clientSecret` field (body or query) are
// replaced with "[redacted]". The newest 10 000 entries are kept, and older ones are dropped early
// when the logged bodies pass 64 MB, so a benchmark cannot exhaust memory through the log.

export interface RequestLogEntry {
  seq: number;
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  /** Response status; 0 when the connection was dropped by a fault; null while in flight. */
  status: number | null;
  /** Parsed JSON (or form) body, null when empty or not JSON. */
  body: unknown;
  at: string;
  headers: Record<string, string>;
  /** Name of the injected fault that answered, if any. */
  fault?: string;
  durationMs?: number;
}

export const REDACTED = "[redacted]";
const SECRET_KEYS = new Set(["client_secret", "clientsecret"]);
const SECRET_HEADERS = new Set(["authorization", "cookie", "proxy-authorization"]);
const MAX_ENTRIES = 10_000;
const MAX_BODY_BYTES = 64 * 1024 * 1024;

export function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, SECRET_KEYS.has(k.toLowerCase()) ? REDACTED : redact(v)]),
    );
  }
  return value;
}

export function queryObject(q: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(q.keys())) {
    const all = q.getAll(key);
    out[key] = all.length === 1 ? all[0] : all;
  }
  return redact(out) as Record<string, string | string[]>;
}

export function logHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) continue;
    out[k] = SECRET_HEADERS.has(k.toLowerCase()) ? REDACTED : Array.isArray(v) ? v.join(", ") : v;
  }
  return out;
}

export class RequestLog {
  private entries: RequestLogEntry[] = [];
  private sizes = new WeakMap<RequestLogEntry, number>();
  private bodyBytes = 0;
  private seq = 0;

  start(entry: Omit<RequestLogEntry, "seq" | "status">): RequestLogEntry {
    const e: RequestLogEntry = { seq: ++this.seq, status: null, ...entry };
    this.entries.push(e);
    this.evict();
    return e;
  }

  /** Attaches the (redacted) body; `size` is the raw byte count, used for the memory budget. */
  setBody(entry: RequestLogEntry, body: unknown, size: number): void {
    entry.body = body;
    if (body === null) return;
    this.sizes.set(entry, size);
    this.bodyBytes += size;
    this.evict();
  }

  list(since = 0): RequestLogEntry[] {
    return structuredClone(this.entries.filter((e) => e.seq > since));
  }

  /** Sequence number of the newest entry, to pass as `since` later. */
  lastSeq(): number {
    return this.seq;
  }

  clear(): void {
    this.entries = [];
    this.bodyBytes = 0;
  }

  private evict(): void {
    let drop = 0;
    while (
      drop < this.entries.length - 1 &&
      (this.entries.length - drop > MAX_ENTRIES || this.bodyBytes > MAX_BODY_BYTES)
    ) {
      this.bodyBytes -= this.sizes.get(this.entries[drop]) ?? 0;
      drop++;
    }
    if (drop) this.entries.splice(0, drop);
  }
}
