import type { Redis } from "ioredis";

// What the app sent again because the service no longer knew it, kept in Redis:
// - one claim per product or order, alive for the resend window: the same one is not sent again
//   while it lives, so a service that keeps denying it costs one resend per window, never a loop;
// - a per-shop report for the Sync page: how many products and orders were sent again, how many
//   were still denied inside their window, and when. It lives for REPORT_TTL_MS after its last
//   event, and starts over when a connection to another account forgets everything.

export type ResendKind = "product" | "order";
export type ResendReason = "unknown" | "account";

export interface ResendReport {
  reason: ResendReason;
  products: number;
  orders: number;
  /** Denied again inside their window: reported, not sent. */
  denied: number;
  /** Last event (ISO). */
  at: string;
}

export const REPORT_TTL_MS = 7 * 86_400_000;

export function createResendLedger(redis: Redis, prefix: string) {
  const claimKey = (shopId: string, kind: ResendKind, key: string) => `${prefix}:resend:claim:${shopId}:${kind}:${key}`;
  const reportKey = (shopId: string) => `${prefix}:resend:report:${shopId}`;
  return {
    /** True when this product or order may be sent again now (and is claimed for the window). */
    async claim(shopId: string, kind: ResendKind, key: string, windowMs: number): Promise<boolean> {
      return (await redis.set(claimKey(shopId, kind, key), String(Date.now()), "PX", windowMs, "NX")) === "OK";
    },

    async record(
      shopId: string,
      counts: { products?: number; orders?: number; denied?: number },
      at = new Date(),
    ): Promise<void> {
      const key = reportKey(shopId);
      await redis
        .multi()
        .hsetnx(key, "reason", "unknown")
        .hincrby(key, "products", counts.products ?? 0)
        .hincrby(key, "orders", counts.orders ?? 0)
        .hincrby(key, "denied", counts.denied ?? 0)
        .hset(key, "at", at.toISOString())
        .pexpire(key, REPORT_TTL_MS)
        .exec();
    },

    /**
     * Another account: everything is sent again; the report starts over with what was forgotten, and so do the claims.
     */
    async recordAccountSwitch(
      shopId: string,
      counts: { products: number; orders: number },
      at = new Date(),
    ): Promise<void> {
      const key = reportKey(shopId);
      const claims = await scanKeys(redis, `${prefix}:resend:claim:${shopId}:*`);
      const m = redis
        .multi()
        .del(key)
        .hset(key, {
          reason: "account",
          products: counts.products,
          orders: counts.orders,
          denied: 0,
          at: at.toISOString(),
        })
        .pexpire(key, REPORT_TTL_MS);
      if (claims.length) m.del(...claims);
      await m.exec();
    },

    async report(shopId: string): Promise<ResendReport | null> {
      const h = await redis.hgetall(reportKey(shopId));
      if (!h.at) return null;
      return {
        reason: h.reason === "account" ? "account" : "unknown",
        products: Number(h.products ?? 0),
        orders: Number(h.orders ?? 0),
        denied: Number(h.denied ?? 0),
        at: h.at,
      };
    },
  };
}

export type ResendLedger = ReturnType<typeof createResendLedger>;

async function scanKeys(redis: Redis, pattern: string): Promise<string[]> {
  const out: string[] = [];
  let cursor = "0";
  do {
    const [next, keys] = await redis.scan(cursor, "MATCH", pattern, "COUNT", 500);
    out.push(...keys);
    cursor = next;
  } while (cursor !== "0");
  return out;
}
