import type { SyncProgress } from "../sync";

/** The counters of a run, as words. */
export function progressCounters(p: SyncProgress): string {
  return `read ${p.read}, sent ${p.sent}, created ${p.created}, updated ${p.updated}, unchanged ${p.unchanged}, failed ${p.failed}`;
}

/**
 * One line: a bar when the total is known (the bulk operation's root objects, once it completed),
 * counters always. Pure, so it is tested as text. No control characters: the CLI decides whether a
 * line rewrites the last one (a terminal) or follows it (logs, CI).
 */
export function progressLine(p: SyncProgress, status: string, width = 30): string {
  const counters = progressCounters(p);
  if (!p.total) return `[${status}] ${counters}`;
  const share = Math.min(1, p.read / p.total);
  const filled = Math.round(share * width);
  return `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${Math.round(share * 100)}% ${status}: ${counters}`;
}
