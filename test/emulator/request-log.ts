// The log of requests received on the service paths (everything except `/__emulator`), for tests
// that assert what a client sent. Secrets never enter it: the Authorization, Cookie and
// Proxy-Authorization headers and any `client_secret`/`clientSecret` field (body or query) are
// replaced with "[redacted]". The newest 10 000 entries are kept.

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
  private seq = 0;

  start(entry: Omit<RequestLogEntry, "seq" | "status">): RequestLogEntry {
    const e: RequestLogEntry = { seq: ++this.seq, status: null, ...entry };
    this.entries.push(e);
    if (this.entries.length > MAX_ENTRIES) this.entries.splice(0, this.entries.length - MAX_ENTRIES);
    return e;
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
  }
}
