import type { RequestLogEntry } from "../../sandbox/emulator/server";

// Readings of the emulator's request log for the fault drills: which calls were about which order
// or batch, and how long a client waited after a 429.

export const isOrderCall = (r: Pick<RequestLogEntry, "path">) => r.path.startsWith("/api/acme/orders");
export const isBatchCall = (r: Pick<RequestLogEntry, "path">) => r.path === "/api/acme/products/batch";
export const isServiceCall = (r: Pick<RequestLogEntry, "path">) => r.path.startsWith("/api/");

/** The order a call is about: the body's orderId of a POST, the last path segment of a PUT. */
export function orderIdOf(r: RequestLogEntry): string {
  if (r.method === "POST") return String((r.body as { orderId?: unknown } | null)?.orderId);
  return decodeURIComponent(r.path.split("/").pop() ?? "");
}

/** The status an order call sends (each of an order's jobs sends its own). */
export function orderStatusOf(r: RequestLogEntry): string | null {
  return (r.body as { status?: string } | null)?.status ?? null;
}

/** When the emulator finished answering (or dropped) the request, epoch ms. */
export const answeredAt = (r: RequestLogEntry) => Date.parse(r.at) + (r.durationMs ?? 0);

/**
 * For each 429 in `calls`, the time until the next call with the same key; the key says which calls
 * one sender makes in turn (a job retrying the same body, or the shop's one catalog sender).
 */
export function waitsAfter429(
  calls: RequestLogEntry[],
  key: (r: RequestLogEntry) => string,
): { key: string; waitedMs: number }[] {
  const byKey = new Map<string, RequestLogEntry[]>();
  for (const r of calls) byKey.set(key(r), [...(byKey.get(key(r)) ?? []), r]);
  const waits: { key: string; waitedMs: number }[] = [];
  for (const [k, list] of byKey) {
    list.sort((a, b) => a.seq - b.seq);
    for (let i = 0; i + 1 < list.length; i++) {
      if (list[i]!.status === 429) waits.push({ key: k, waitedMs: Date.parse(list[i + 1]!.at) - answeredAt(list[i]!) });
    }
  }
  return waits;
}

/**
 * Calls that arrived while a 429 answered earlier was still asking everyone to wait. Calls arriving
 * within `inFlightMs` of that answer are not counted: they were sent before the sender could know.
 */
export function callsInsidePause(
  calls: RequestLogEntry[],
  retryAfterMs: number,
  inFlightMs: number,
  clockSlackMs: number,
) {
  const inside: { after: number; seq: number; gapMs: number }[] = [];
  for (const q of calls) {
    if (q.status !== 429) continue;
    for (const r of calls) {
      const gapMs = Date.parse(r.at) - answeredAt(q);
      if (r.seq > q.seq && gapMs >= inFlightMs && gapMs < retryAfterMs - clockSlackMs)
        inside.push({ after: q.seq, seq: r.seq, gapMs });
    }
  }
  return inside;
}

/** How many bursts the calls came in, a burst starting at least `gapMs` after the previous one. */
export function rounds(calls: Pick<RequestLogEntry, "seq" | "at">[], gapMs: number): number {
  let count = 0;
  let start = -Infinity;
  for (const r of [...calls].sort((a, b) => a.seq - b.seq)) {
    if (Date.parse(r.at) - start >= gapMs) {
      count++;
      start = Date.parse(r.at);
    }
  }
  return count;
}

/**
 * Retries that came sooner than exponential backoff allows. The i-th retry of a job waits at least
 * half of base·2^(i-1) (BullMQ's jitter takes off at most half), and a job may make attempts that
 * never reach the service, so arrival-to-arrival gaps of its calls can only be longer.
 */
export function earlyRetries(
  calls: RequestLogEntry[],
  key: (r: RequestLogEntry) => string,
  baseMs: number,
  clockSlackMs: number,
) {
  const byKey = new Map<string, RequestLogEntry[]>();
  for (const r of calls) byKey.set(key(r), [...(byKey.get(key(r)) ?? []), r]);
  const early: { key: string; retry: number; gapMs: number; minMs: number }[] = [];
  let longest = 0;
  for (const [k, list] of byKey) {
    list.sort((a, b) => a.seq - b.seq);
    longest = Math.max(longest, list.length);
    for (let i = 1; i < list.length; i++) {
      const gapMs = Date.parse(list[i]!.at) - Date.parse(list[i - 1]!.at);
      const minMs = (baseMs * 2 ** (i - 1)) / 2;
      if (gapMs < minMs - clockSlackMs) early.push({ key: k, retry: i, gapMs, minMs });
    }
  }
  return { early, longest };
}
