import type { AppContext } from "./context.server";

export interface HealthReport {
  ok: boolean;
  db: "up" | "down";
  redis: "up" | "down";
}

export async function checkHealth(ctx: Pick<AppContext, "db" | "queues">): Promise<HealthReport> {
  const [db, redis] = await Promise.all([
    ctx.db.$queryRawUnsafe("SELECT 1").then(
      () => "up" as const,
      () => "down" as const,
    ),
    ctx.queues
      .ready(1000)
      .then(() => ctx.queues.redis.ping())
      .then(
        () => "up" as const,
        () => "down" as const,
      ),
  ]);
  return { ok: db === "up" && redis === "up", db, redis };
}
