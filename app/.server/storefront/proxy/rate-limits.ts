import type { Redis } from "ioredis";

// Fixed-window counters in Redis, shared by every app process. Two limits guard the proxy:
// per shopper IP on every request (one browser or script hammering the endpoint), and per shop on
// the requests that reach the reviews service (cache misses), which protects the service and the
// account's own quota however many shoppers a busy store has.

export interface LimitRule {
  /** Requests allowed per window; 0 turns the rule off. */
  max: number;
  windowMs: number;
}

export type LimitResult = { ok: true } | { ok: false; retryAfterSeconds: number };

// INCR with the window's expiry set on its first hit: one round trip, atomic.
const HIT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`;

export function createRateLimiter(redis: Redis, prefix: string) {
  return {
    async hit(scope: string, subject: string, rule: LimitRule): Promise<LimitResult> {
      if (rule.max <= 0) return { ok: true };
      const now = Date.now();
      const key = `${prefix}:proxy:limit:${scope}:${subject}:${Math.floor(now / rule.windowMs)}`;
      const count = (await redis.eval(HIT, 1, key, String(rule.windowMs))) as number;
      if (count <= rule.max) return { ok: true };
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((rule.windowMs - (now % rule.windowMs)) / 1000)) };
    },
  };
}
export type RateLimiter = ReturnType<typeof createRateLimiter>;

/** The shopper's address as Shopify forwards it (first X-Forwarded-For entry). */
export function clientIp(request: Request): string {
  const forwarded = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  return forwarded && /^[0-9a-fA-F.:]{2,45}$/.test(forwarded) ? forwarded : "unknown";
}
