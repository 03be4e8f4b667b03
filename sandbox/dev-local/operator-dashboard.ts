import type { Server } from "node:http";
import express from "express";
import pino from "pino";
import type { Page } from "playwright-core";
import type { Config } from "../../app/.server/config";
import { allQueueNames } from "../../app/.server/queues";
import { mountQueueDashboard, QUEUE_DASHBOARD_PATH } from "../../server/queue-dashboard";

// The operators' queue dashboard for `npm run dev:local`, mounted as the production web process
// mounts it (server/main.ts) but on a port of its own: the dev server (Vite) has no express app to
// mount it in. Same password rule: nothing without OPERATOR_PASSWORD.

export async function startLocalDashboard(
  config: Config,
  port: number,
): Promise<{ url: string; close: () => Promise<void> }> {
  const app = express();
  const dashboard = mountQueueDashboard(app, {
    redisUrl: config.REDIS_URL,
    cluster: config.REDIS_CLUSTER,
    prefix: config.REDIS_PREFIX,
    user: config.OPERATOR_USER,
    password: config.OPERATOR_PASSWORD,
    writable: config.QUEUE_DASHBOARD_WRITE,
    // Its one log line (mounted) would only interleave with the demo's terminal.
    log: pino({ level: "silent" }),
  });
  if (!dashboard) throw new Error("operator dashboard: OPERATOR_PASSWORD is not set");
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(port, "127.0.0.1", () => resolve(s)).on("error", reject);
  });
  return {
    url: `http://127.0.0.1:${port}${QUEUE_DASHBOARD_PATH}`,
    close: async () => {
      await new Promise((r) => server.close(r));
      await dashboard.close();
    },
  };
}

export const basicCredentials = (config: Pick<Config, "OPERATOR_USER" | "OPERATOR_PASSWORD">) => ({
  username: config.OPERATOR_USER,
  password: config.OPERATOR_PASSWORD ?? "",
});

/** Refused without the password, every queue listed with it; what it proved, in words. */
export async function checkDashboardAnswers(
  url: string,
  config: Pick<Config, "OPERATOR_USER" | "OPERATOR_PASSWORD">,
): Promise<string> {
  const { username, password } = basicCredentials(config);
  const anonymous = await fetch(url);
  const auth = `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;
  const res = await fetch(`${url}/api/queues`, { headers: { Authorization: auth } });
  const body = (await res.json().catch(() => ({}))) as { queues?: { name: string }[] };
  const names = new Set(body.queues?.map((q) => q.name));
  if (anonymous.status !== 401 || res.status !== 200 || !allQueueNames.every((n) => names.has(n))) {
    throw new Error(
      `operator dashboard: ${anonymous.status} without credentials, ${res.status} with them, queues ${[...names].join(", ")}`,
    );
  }
  return `401 without the password; with it, ${names.size} queues`;
}

/** In Chromium (with the credentials): the page lists every queue. */
export async function dashboardProbe(page: Page): Promise<string> {
  for (const name of allQueueNames) await page.getByText(name, { exact: true }).first().waitFor({ timeout: 20_000 });
  return `lists the ${allQueueNames.length} queues`;
}

/**
 * bull-board's page asks Google Fonts for its typeface: unreachable offline, so anything outside
 * the dashboard is answered empty and the page falls back to the system's fonts.
 */
export function offlineRoute(origin: string): Parameters<Page["route"]>[1] {
  return (route) =>
    route.request().url().startsWith(`${origin}/`)
      ? route.continue()
      : route.fulfill({ status: 200, contentType: "text/css", body: "" });
}
