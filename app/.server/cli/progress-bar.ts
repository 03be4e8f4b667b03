import type { SyncProgress } from "../sync/sync-runs.repository";

/** One line: a bar when the total is known, counters always. Pure, so it is tested as text. */
export function progressLine(p: SyncProgress, status: string, width = 30): string {
  const counters = `read ${p.read}, sent ${p.sent}, created ${p.created}, updated ${p.updated}, unchanged ${p.unchanged}, failed ${p.failed}`;
  if (!p.total) return `[${status}] ${counters}`;
  const share = Math.min(1, p.read / p.total);
  const filled = Math.round(share * width);
  return `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${Math.round(share * 100)}% ${status}: ${counters}`;
}
