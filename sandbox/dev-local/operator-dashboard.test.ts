import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { parseConfig } from "../../app/.server/config";
import { freePort } from "./local-redis";
import {
  basicCredentials,
  checkDashboardAnswers,
  dashboardProbe,
  offlineRoute,
  startLocalDashboard,
} from "./operator-dashboard";
import { checkPage } from "./browser-check";
import { deletePrefix, redisUrl, uniquePrefix } from "../../test/helpers/redis";
import { launchChromium } from "../../test/helpers/chromium";

// The queue dashboard dev:local lists under "Operator": on real HTTP and Redis, refused without
// the password, and in Chromium with it, every queue shown and nothing failing in the page.

const prefix = uniquePrefix("dev-dashboard");
const config = parseConfig({
  ...process.env,
  REDIS_URL: redisUrl(),
  REDIS_PREFIX: prefix,
  OPERATOR_PASSWORD: "local-operator-password",
});
const running: (() => Promise<void>)[] = [];
let browser: Browser | undefined;

afterEach(async () => {
  for (const close of running.splice(0)) await close();
});
afterAll(async () => {
  await browser?.close();
  await deletePrefix(prefix);
});

describe("dev:local's operator dashboard", () => {
  it("GIVEN no operator password THEN it does not start", async () => {
    await expect(startLocalDashboard({ ...config, OPERATOR_PASSWORD: undefined }, await freePort())).rejects.toThrow(
      /OPERATOR_PASSWORD/,
    );
  });

  it("GIVEN the password THEN 401 without it, every queue with it", async () => {
    const dashboard = await startLocalDashboard(config, await freePort());
    running.push(dashboard.close);
    expect(dashboard.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/ops\/queues$/);
    await expect(checkDashboardAnswers(dashboard.url, config)).resolves.toBe(
      "401 without the password; with it, 4 queues",
    );
    await expect(
      checkDashboardAnswers(dashboard.url, { ...config, OPERATOR_PASSWORD: "wrong-password-0000" }),
    ).rejects.toThrow(/401 with them/);
  });

  it("GIVEN Chromium with the operator's credentials THEN the page lists every queue with no error (offline: its web font answered empty)", async () => {
    const dashboard = await startLocalDashboard(config, await freePort());
    running.push(dashboard.close);
    browser = await launchChromium();
    const origin = new URL(dashboard.url).origin;
    const result = await checkPage(browser, dashboard.url, dashboardProbe, {
      appOrigin: origin,
      react: false,
      route: offlineRoute(origin),
      httpCredentials: basicCredentials(config),
    });
    expect(result).toEqual({ problems: [], proved: "lists the 4 queues" });
  }, 120_000);
});
