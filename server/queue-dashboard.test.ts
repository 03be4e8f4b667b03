import type { Server } from "node:http";
import express from "express";
import pino from "pino";
import { Queue } from "bullmq";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { mountQueueDashboard, QUEUE_DASHBOARD_PATH } from "./queue-dashboard";
import { deletePrefix, redisUrl, uniquePrefix } from "../test/helpers/redis";
import { QueueName } from "../app/.server/queues/names";

// The queue dashboard over real HTTP and Redis: nobody without the operator's credentials, read
// only unless the operator opted in.

const PASSWORD = "operator-password-0123";
const prefix = uniquePrefix("dashboard");
const open: { server: Server; close(): Promise<void> }[] = [];
const log = pino({ level: "silent" });

async function serve(options: { password?: string; writable?: boolean }) {
  const app = express();
  const dashboard = mountQueueDashboard(app, {
    redisUrl: redisUrl(),
    cluster: false,
    prefix,
    user: "operator",
    password: options.password,
    writable: options.writable ?? false,
    log,
  });
  app.use((_req, res) => res.status(404).end());
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  open.push({ server, close: async () => dashboard?.close() });
  const address = server.address();
  return `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}${QUEUE_DASHBOARD_PATH}`;
}

const basic = (user: string, password: string) => ({
  Authorization: `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`,
});
const operator = basic("operator", PASSWORD);

afterEach(async () => {
  for (const o of open.splice(0)) {
    await o.close();
    await new Promise((r) => o.server.close(r));
  }
});
afterAll(() => deletePrefix(prefix));

describe("queue dashboard", () => {
  it("GIVEN no operator password THEN there is no dashboard (404)", async () => {
    const url = await serve({});
    expect((await fetch(url)).status).toBe(404);
    expect((await fetch(`${url}/api/queues`, { headers: operator })).status).toBe(404);
  });

  it("GIVEN no or wrong credentials THEN 401 with a basic challenge, for the page and its API", async () => {
    const url = await serve({ password: PASSWORD });
    const page = await fetch(url);
    expect(page.status).toBe(401);
    expect(page.headers.get("www-authenticate")).toMatch(/^Basic realm="Queues"/);
    expect((await fetch(`${url}/api/queues`)).status).toBe(401);
    expect((await fetch(`${url}/api/queues`, { headers: basic("operator", "wrong-password-000") })).status).toBe(401);
    expect((await fetch(`${url}/api/queues`, { headers: basic("admin", PASSWORD) })).status).toBe(401);
  });

  it("GIVEN the operator's credentials THEN the page and every queue, read only: pausing a queue is refused and changes nothing", async () => {
    const url = await serve({ password: PASSWORD });
    const page = await fetch(url, { headers: operator });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root"');
    const list = (await (await fetch(`${url}/api/queues`, { headers: operator })).json()) as {
      queues: { name: string; readOnlyMode: boolean }[];
    };
    expect(list.queues.map((q) => q.name).sort()).toEqual(Object.values(QueueName).sort());
    expect(list.queues.every((q) => q.readOnlyMode)).toBe(true);
    const pause = await fetch(`${url}/api/queues/${QueueName.webhooks}/pause`, { method: "PUT", headers: operator });
    expect(pause.status).toBe(405);
    const queue = new Queue(QueueName.webhooks, { connection: { url: redisUrl() }, prefix });
    try {
      expect(await queue.isPaused()).toBe(false);
    } finally {
      await queue.close();
    }
  });

  it("GIVEN QUEUE_DASHBOARD_WRITE THEN the operator can pause and resume a queue", async () => {
    const url = await serve({ password: PASSWORD, writable: true });
    const queue = new Queue(QueueName.maintenance, { connection: { url: redisUrl() }, prefix });
    try {
      expect(
        (await fetch(`${url}/api/queues/${QueueName.maintenance}/pause`, { method: "PUT", headers: operator })).status,
      ).toBe(200);
      expect(await queue.isPaused()).toBe(true);
      expect(
        (await fetch(`${url}/api/queues/${QueueName.maintenance}/resume`, { method: "PUT", headers: operator })).status,
      ).toBe(200);
      expect(await queue.isPaused()).toBe(false);
    } finally {
      await queue.close();
    }
  });
});
