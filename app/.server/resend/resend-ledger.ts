import type { Redis } from "ioredis";
import { scanKeys, keyspaceOf, shopTag } from "../queues";

// What the app sent again because the service no longer knew it, kept in Redis:
// - one claim per product or order, alive for the resend window: the same one is not sent again
//   while it lives, so a service that keeps denying it costs one resend per window, never a loop;
// - a per-shop report for the Sync page: how many products and orders were sent again, how many
//   were still denied inside their window, and when. It lives for REPORT_TTL_MS after its last
//   event, and starts over when a connection to another account forgets everything.
// A shop's claims and report go in one MULTI when it switches accounts: on a Redis Cluster they carry
// the shop's tag, so they share its slot (keyspace.ts).

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
  const keyspace = keyspaceOf(redis, prefix);
  const claims = (shopId: string) => `${prefix}:resend:claim:${shopTag(keyspace, shopId)}`;
  const claimKey = (shopId: string, kind: ResendKind, key: string) => `${claims(shopId)}:${kind}:${key}`;
  const reportKey = (shopId: string) => `${prefix}:resend:report:${shopTag(keyspace, shopId)}`;
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
      const forgotten = await scanKeys(redis, `${claims(shopId)}:*`, 500);
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
      if (forgotten.length) m.del(...forgotten);
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
