import { createHash } from "node:crypto";
import type { Redis } from "ioredis";

// Shopify's signature says a request came through the proxy within 90 s; it does not stop the same
// signed request being sent again in that time. A write is taken once per signed query and body:
// the first use is remembered a little longer than the timestamp is accepted. (The signature alone
// would not do: two guests posting to the same product in the same second get the same one.)

const REMEMBER_MS = 180_000;

export function createReplayGuard(redis: Redis, prefix: string) {
  return {
    /** True the first time this signed request with this body is seen. */
    async firstUse(request: Request, body: string): Promise<boolean> {
      const url = new URL(request.url);
      const signature = url.searchParams.get("signature") ?? "";
      if (!signature) return false;
      const seen = createHash("sha256")
        .update(url.pathname)
        .update("\n")
        .update(signature)
        .update("\n")
        .update(body)
        .digest("base64url");
      return (await redis.set(`${prefix}:proxy:seen:${seen}`, "1", "PX", REMEMBER_MS, "NX")) === "OK";
    },
  };
}
export type ReplayGuard = ReturnType<typeof createReplayGuard>;
