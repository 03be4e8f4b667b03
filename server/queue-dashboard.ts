import { timingSafeEqual } from "node:crypto";
import type { Express, NextFunction, Request, Response } from "express";
import { createBullBoard } from "@bull-board/api";
import { BullMQAdapter } from "@bull-board/api/bullMQAdapter";
import { ExpressAdapter } from "@bull-board/express";
import type { Logger } from "pino";
import { createQueues, allQueueNames } from "../app/.server/queues";

// The operators' queue dashboard (bull-board) on the web process. Never public: it is not mounted
// at all without OPERATOR_PASSWORD, and asks for HTTP basic credentials on every request (behind
// TLS, as the app is). Job data holds webhook payloads (buyer names and addresses), so only
// operators who may read them should get the password. Read only by default: bull-board's own
// read-only mode, and any method but GET refused here too.

export const QUEUE_DASHBOARD_PATH = "/ops/queues";

export interface QueueDashboardOptions {
  redisUrl: string;
  /** REDIS_CLUSTER */
  cluster: boolean;
  prefix: string;
  user: string;
  password: string | undefined;
  writable: boolean;
  log: Logger;
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function basicAuth(user: string, password: string, realm: string) {
  return (req: Request, res: Response, next: NextFunction) => {
    const [scheme, encoded] = (req.headers.authorization ?? "").split(" ");
    const [u, ...p] = Buffer.from(encoded ?? "", "base64")
      .toString("utf8")
      .split(":");
    // Both compared, always, so the time taken says nothing about which one was wrong.
    const ok = [same(u ?? "", user), same(p.join(":"), password)].every(Boolean);
    if (scheme?.toLowerCase() === "basic" && ok) return next();
    res.setHeader("WWW-Authenticate", `Basic realm="${realm}", charset="UTF-8"`);
    res.status(401).end();
  };
}

/** Mounts the dashboard when a password is set; returns how to close its Redis connection. */
export function mountQueueDashboard(
  app: Express,
  options: QueueDashboardOptions,
): { close(): Promise<void> } | undefined {
  if (!options.password) return undefined;
  const queues = createQueues({
    redisUrl: options.redisUrl,
    cluster: options.cluster,
    prefix: options.prefix,
    role: "producer",
    onError: (e) => options.log.warn({ err: e.message }, "redis (dashboard) error"),
  });
  const serverAdapter = new ExpressAdapter().setBasePath(QUEUE_DASHBOARD_PATH);
  createBullBoard({
    queues: allQueueNames.map(
      (name) =>
        new BullMQAdapter(queues.get(name), { readOnlyMode: !options.writable, allowRetries: options.writable }),
    ),
    // @bull-board/express 9.10.1 carries its own copy of @bull-board/api 9.10.1 (no 9.10.2 of it was
    // published): the same interface, typed twice.
    serverAdapter: serverAdapter as unknown as Parameters<typeof createBullBoard>[0]["serverAdapter"],
    options: { uiConfig: { boardTitle: "Reviews connector queues" } },
  });
  const readOnly = (req: Request, res: Response, next: NextFunction) =>
    options.writable || req.method === "GET" || req.method === "HEAD"
      ? next()
      : res.status(405).json({ error: "The queue dashboard is read only (QUEUE_DASHBOARD_WRITE)" });
  app.use(
    QUEUE_DASHBOARD_PATH,
    basicAuth(options.user, options.password, "Queues"),
    readOnly,
    serverAdapter.getRouter(),
  );
  options.log.info({ path: QUEUE_DASHBOARD_PATH, writable: options.writable }, "queue dashboard mounted");
  return { close: () => queues.close() };
}
