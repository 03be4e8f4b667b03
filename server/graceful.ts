import type { Server } from "node:http";
import type { Logger } from "pino";
import { closeAll, startDraining } from "../app/.server/lifecycle";

// SIGTERM for the web process: readiness turns false, the listener closes (no new connections),
// keep-alive connections are told to close after their current response, requests in flight are
// answered; then queues, Redis and Prisma are closed and the process exits, all within `timeoutMs`.
// What is still open at the bound is cut and the exit code says so.

export interface ShutdownOptions {
  timeoutMs: number;
  /** Readiness false but still listening, for a load balancer to notice (SHUTDOWN_DELAY_MS). */
  delayMs?: number;
  log: Logger;
  /** Other things to close after the last request (metrics listener, dashboard queues). */
  extraClosers?: (() => Promise<unknown>)[];
  exit?: (code: number) => void;
}

export function gracefulShutdown(servers: Server[], options: ShutdownOptions): (signal: string) => Promise<void> {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let started = false;
  return async (signal) => {
    if (started) return;
    started = true;
    const t0 = Date.now();
    const { log, timeoutMs } = options;
    log.info({ signal, timeoutMs }, "web server draining");
    startDraining();
    // A hard stop at the bound, whatever hangs.
    const hard = setTimeout(() => {
      log.error({ afterMs: Date.now() - t0 }, "web server did not stop within SHUTDOWN_TIMEOUT_MS; exiting");
      exit(1);
    }, timeoutMs);

    const delayMs = Math.min(options.delayMs ?? 0, timeoutMs / 2);
    if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
    // Leave a quarter of the bound (at most 2 s) for closing the connections to Redis and the database.
    const drainMs = timeoutMs - Math.min(2000, Math.floor(timeoutMs / 4)) - (Date.now() - t0);
    const drained = await Promise.race([
      Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve())))).then(
        () => true,
      ),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), drainMs).unref()),
    ]);
    if (!drained) {
      log.warn({ afterMs: Date.now() - t0 }, "requests still open at the drain bound; closing their connections");
      for (const server of servers) server.closeAllConnections();
    }
    const settled = await Promise.allSettled([closeAll(), ...(options.extraClosers ?? []).map((close) => close())]);
    const each = settled.flatMap((r) =>
      r.status === "fulfilled" && Array.isArray(r.value) ? (r.value as PromiseSettledResult<unknown>[]) : [r],
    );
    const failures = each.flatMap((r) => (r.status === "rejected" ? [String(r.reason)] : []));
    if (failures.length) log.warn({ failures }, "some connections did not close cleanly");
    log.info({ afterMs: Date.now() - t0, drained }, "web server stopped");
    clearTimeout(hard);
    exit(drained && failures.length === 0 ? 0 : 1);
  };
}
