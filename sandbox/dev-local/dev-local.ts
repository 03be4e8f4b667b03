import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { appendFileSync, createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { loadDotEnv } from "../../app/.server/dotenv";
import { freePort, redisAnswers, startPrivateRedis } from "./local-redis";
import { DEMO_ACCOUNT, DEMO_SHOP, FRESH_SHOP, installFreshShop, runCatalogDemo } from "./demo";
import { z } from "zod";
import { hostParam, mintSessionToken } from "../../app/.server/admin";
import { runOrderDemo } from "./demo-orders";
import { pendingAtService, seedDemoReviews } from "./demo-reviews";
import { runShopAppDemo } from "./demo-shop-app";
import { runStorefrontDemo } from "./demo-storefront";
import { runRatingsDemo } from "./demo-ratings";
import { runAccountDemo } from "./demo-account";
import { parseConfig } from "../../app/.server/config";
import { createDb } from "../../app/.server/db";
import { shopRedact } from "../../app/.server/compliance";
import { createQueues } from "../../app/.server/queues";
import { createShopRepository } from "../../app/.server/shops";
import { createPendingChanges } from "../../app/.server/catalog";
import { adminProbes, checkPage, storefrontProbe } from "./browser-check";
import { completeStorefrontFlows, type StorefrontFlows } from "./browser-flows";
import { createTerminal } from "./terminal";
import { addressesUnder, emptyAddresses, formatSummary, type DemoAddresses } from "./demo-summary";
import { devLocalPort } from "./dev-local-ports";
import { writeAppBridgeStandIn } from "../app-bridge/script-file";
import { THEME_BLOCKS_PATH } from "../local-storefront/server";
import { chromiumPath } from "../chromium";
import {
  basicCredentials,
  checkDashboardAnswers,
  dashboardProbe,
  offlineRoute,
  startLocalDashboard,
} from "./operator-dashboard";

// `npm run dev:local`: the whole system on this machine with embedded defaults and no Shopify
// account: SQLite, a local Redis (REDIS_URL when it answers, else a private redis-server), the
// reviews-service emulator, a simulated Shopify store with a few hundred products, the app server
// and a worker; then the demo: a shop connects and its catalog is synced, with progress; then the
// store places and moves a few dozen orders, each change a signed webhook to the app server, and
// the demo prints what the reviews service received.
// `--check` does all that on free ports, proves it, and stops (used by the tests), with every page
// opened in Chromium unless `--no-browser` (a machine without Chromium); `--no-demo` brings up
// only the app server and the worker. The addresses to open come last, grouped
// (demo-summary.ts); a wait of more than a moment shows a ticking progress line (terminal.ts).

const check = process.argv.includes("--check");
const browserCheck = check && !process.argv.includes("--no-browser");
const demo = !process.argv.includes("--no-demo");
// Where the embedded defaults are kept; tests point it at a temporary file.
const envFile = process.env.DEV_LOCAL_ENV_FILE || ".env";
const children: ChildProcess[] = [];
// In-process parts (the local storefront) closed before the children are stopped.
const closers: (() => Promise<void>)[] = [];
const terminal = createTerminal(process.stdout, { prefix: "[dev:local] " });
const { say, progress, step } = terminal;
// Every address to open, printed last; `--check` opens the storefront's in Chromium.
const addresses: DemoAddresses = emptyAddresses();
// The children's own lines (JSON logs of the app server and worker, the emulator, the store) go to
// one file each, so the demo's summary reads as one text; `--verbose` streams them here as well.
const verbose = process.argv.includes("--verbose");
const logDir = resolve(process.env.DEV_LOCAL_LOG_DIR || join(".local", "logs"));
const logFile = (name: string) => join(logDir, `${name}.log`);

function writeDefaultEnv() {
  if (existsSync(envFile)) return;
  const lines = [
    "# Written by npm run dev:local: embedded defaults for this machine only. Never commit it.",
    "DATABASE_URL=file:./prisma/dev.sqlite",
    `ENCRYPTION_KEY=${randomBytes(32).toString("hex")}`,
    "SHOPIFY_API_KEY=local-dev-api-key",
    `SHOPIFY_API_SECRET=${randomBytes(16).toString("hex")}`,
    "SHOPIFY_APP_URL=http://localhost:3000",
    "REVIEWS_API_URL=http://127.0.0.1:8787/api",
    "REVIEWS_AUTH_URL=http://127.0.0.1:8787/auth",
    "REVIEWS_RATE_URL=http://127.0.0.1:8787",
    "REDIS_PREFIX=reviews-dev",
    // The operator dashboard's password (user "operator"); stays on this machine.
    `OPERATOR_PASSWORD=${randomBytes(18).toString("base64url")}`,
    "",
  ];
  writeFileSync(envFile, lines.join("\n"), { mode: 0o600 });
  say(`wrote ${envFile} with local defaults`);
}

/** A `.env` written before the operator dashboard came gets its password now. */
function ensureOperatorPassword() {
  if (process.env.OPERATOR_PASSWORD) return;
  const password = randomBytes(18).toString("base64url");
  appendFileSync(envFile, `OPERATOR_PASSWORD=${password}\n`);
  process.env.OPERATOR_PASSWORD = password;
}

async function startOperatorDashboard(env: NodeJS.ProcessEnv, port: number): Promise<string> {
  const dashboard = await startLocalDashboard(parseConfig(env), port);
  closers.push(dashboard.close);
  return dashboard.url;
}

async function checkOperatorDashboard(url: string, env: NodeJS.ProcessEnv) {
  say(`operator dashboard check: ${await checkDashboardAnswers(url, parseConfig(env))}`);
}

async function ensureRedis(): Promise<string> {
  const url = process.env.REDIS_URL || "redis://127.0.0.1:6379";
  if (await redisAnswers(url)) return url;
  try {
    const local = await startPrivateRedis();
    children.push(local.child);
    say(`started redis-server on port ${local.port}`);
    return local.url;
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}

function run(name: string, command: string, args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  // A process group of its own: `npx tsx …` runs the program as a grandchild that a signal to npx
  // alone would leave running; stop() signals the whole group.
  const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  const log = createWriteStream(logFile(name), { flags: "w" });
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  if (verbose) {
    const prefix = (chunk: Buffer) =>
      chunk
        .toString()
        .split("\n")
        .filter(Boolean)
        .map((l) => `[${name}] ${l}\n`)
        .join("");
    child.stdout?.on("data", (c: Buffer) => process.stdout.write(prefix(c)));
    child.stderr?.on("data", (c: Buffer) => process.stderr.write(prefix(c)));
  }
  child.on("exit", (code, signal) => {
    if (!stopping) {
      // The reason is in its log, which the reader has not seen: show its last lines.
      log.end(() => {
        const tail = readFileSync(logFile(name), "utf8").trimEnd().split("\n").slice(-20);
        say(`${name} exited (${signal ?? code}); its last lines (${logFile(name)}):`);
        for (const line of tail) process.stderr.write(`[${name}] ${line}\n`);
        void stop(1);
      });
    }
  });
  children.push(child);
  return child;
}

function waitForLine(child: ChildProcess, pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${pattern}`)), timeoutMs);
    let seen = "";
    const onData = (c: Buffer) => {
      seen += c.toString();
      const match = seen.match(pattern);
      if (match) {
        clearTimeout(timer);
        child.stdout?.off("data", onData);
        resolve(match);
      }
    };
    child.stdout?.on("data", onData);
  });
}

async function waitForHealth(url: string, timeoutMs: number): Promise<unknown> {
  const deadline = Date.now() + timeoutMs;
  let last = "";
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.ok) return await res.json();
      last = `status ${res.status}`;
    } catch (e) {
      last = (e as Error).message;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`health check did not pass: ${last}`);
}

/**
 * The address Shopify's admin would give the app's iframe, with a session token minted here with
 * the local app secret (App Bridge would fetch one from Shopify).
 */
function adminAddress(port: number, shop: string, env: NodeJS.ProcessEnv): string {
  const token = mintSessionToken(shop, {
    secret: String(env.SHOPIFY_API_SECRET),
    apiKey: String(env.SHOPIFY_API_KEY),
    lifetimeSeconds: 12 * 3600,
  });
  const q = new URLSearchParams({ embedded: "1", shop, host: hostParam(shop), locale: "en", id_token: token });
  return `http://127.0.0.1:${port}/app?${q}`;
}

const serviceStateSchema = z.looseObject({
  products: z.array(z.looseObject({ sku: z.string() })),
  reviews: z.array(z.looseObject({ _id: z.string() })),
  orders: z.array(z.looseObject({ orderId: z.string() })),
});

/**
 * What the service and Shopify know the demo's things by, which no page may show where a person
 * reads (the browser check fails on one): product keys, review ids, order ids longer than an
 * order's own number, the account's customer key and client id.
 */
async function serviceIds(emulatorOrigin: string): Promise<string[]> {
  const res = await fetch(`${emulatorOrigin}/__emulator/state?customer=${DEMO_ACCOUNT.customer}`);
  const state = serviceStateSchema.parse(await res.json());
  return [
    ...state.products.map((p) => p.sku),
    ...state.reviews.map((r) => r._id),
    ...state.orders.map((o) => o.orderId).filter((id) => id.length > 4),
    DEMO_ACCOUNT.customer,
    DEMO_ACCOUNT.clientId,
  ];
}

/**
 * Every admin page and every storefront page the demo printed, opened in Chromium as a newcomer
 * would: each must load with no error in the browser and answer (browser-check.ts).
 */
async function checkInBrowser(
  adminAt: (pathname: string) => string,
  appOrigin: string,
  storefrontOrigin: string,
  dashboard: { url: string; env: NodeJS.ProcessEnv },
  hiddenIds: readonly string[],
  flows: StorefrontFlows,
) {
  say("browser check: opening every admin page and every storefront address in Chromium");
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: ["--no-sandbox", "--disable-gpu"],
  });
  const shots = process.env.DEV_LOCAL_SHOTS_DIR;
  if (shots) mkdirSync(shots, { recursive: true });
  const shotsOf = (name: string) =>
    shots ? { 375: join(shots, `${name}-375.png`), 1280: join(shots, `${name}-1280.png`) } : undefined;
  // Shopify's CDN (the admin's font) is not reachable offline: answered empty, as the tests do.
  const route = async (r: import("playwright-core").Route) =>
    r.request().url().startsWith("https://cdn.shopify.com/")
      ? r.fulfill({ status: 200, contentType: "text/css", body: "" })
      : r.continue();
  const failures: string[] = [];
  try {
    for (const [path, probe] of Object.entries(adminProbes)) {
      const result = await checkPage(browser, adminAt(path), probe, {
        appOrigin,
        route,
        hiddenIds,
        screenshots: shotsOf(`admin${path.replaceAll("/", "-")}`),
      });
      if (result.problems.length) failures.push(`admin ${path}: ${result.problems.join("; ")}`);
      else say(`browser check: admin ${path}: ${result.proved}`);
    }
    const pages = addressesUnder(addresses, storefrontOrigin);
    for (const [i, url] of pages.entries()) {
      const pathname = new URL(url).pathname;
      // The storefront calls the app through its proxy: a failed request there is the app's.
      const result = await checkPage(browser, url, storefrontProbe, {
        appOrigin: storefrontOrigin,
        react: false,
        route,
        hiddenIds,
        screenshots: shotsOf(`storefront-${i}`),
      });
      if (result.problems.length) failures.push(`storefront ${pathname}: ${result.problems.join("; ")}`);
    }
    say(`browser check: ${pages.length} storefront pages the demo printed load in Chromium with no error`);
    const completed = await completeStorefrontFlows(browser, flows);
    for (const line of completed.done) say(`browser check: ${line}`);
    failures.push(...completed.failures);
    const dashboardOrigin = new URL(dashboard.url).origin;
    const ops = await checkPage(browser, dashboard.url, dashboardProbe, {
      appOrigin: dashboardOrigin,
      react: false,
      route: offlineRoute(dashboardOrigin),
      httpCredentials: basicCredentials(parseConfig(dashboard.env)),
      screenshots: shotsOf("operator-dashboard"),
    });
    if (ops.problems.length) failures.push(`operator dashboard: ${ops.problems.join("; ")}`);
    else say(`browser check: operator dashboard ${ops.proved}`);
  } finally {
    await browser.close();
  }
  const late = lateBundles();
  if (late.length)
    failures.push(
      `Vite bundled a dependency only when a page asked for it (a page can then hold two copies of React): ${late.join("; ")}; list it in vite.config.ts, optimizeDeps`,
    );
  else say("browser check: Vite bundled no dependency late, every page opened");
  if (failures.length) throw new Error(`browser check failed:\n  ${failures.join("\n  ")}`);
}

/**
 * Vite's lines saying it bundled dependencies again after a page asked for one it had not found up
 * front. `--check` starts Vite with `--force`, so a cache from an earlier run cannot hide one.
 */
function lateBundles(): string[] {
  return readFileSync(logFile("web"), "utf8")
    .split("\n")
    .filter((l) => /new dependencies optimized|optimized dependencies changed/.test(l))
    .map((l) => l.trim());
}

/** The admin opens with that address, and its App Bridge stand-in is served. */
async function checkAdmin(address: string) {
  const ua = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";
  const page = await fetch(address, { headers: { "User-Agent": ua } });
  const html = await page.text();
  if (page.status !== 200 || !html.includes("/local/app-bridge.js"))
    throw new Error(`embedded admin: status ${page.status}`);
  const bridge = await fetch(new URL("/local/app-bridge.js", address));
  if (bridge.status !== 200 || !(await bridge.text()).includes("window.shopify"))
    throw new Error(`App Bridge stand-in: status ${bridge.status}`);
  say("embedded admin: opens with the minted session token; App Bridge stand-in served");
}

/**
 * A start after the first in this folder begins the demo afresh, the database together with the
 * emulator and the simulated store: those two start empty, so the demo shops' rows go as well, as
 * Shopify's shop/redact would remove them (sessions, connection, settings, what was sent, reviews
 * waiting to be sent). Keeping the rows made the two disagree: a shop connected in the last run
 * showed connected in the admin while the demo printed "not connected", and the reviews written
 * then were gone from the service while the database still counted them.
 */
async function resetLastRun(env: NodeJS.ProcessEnv) {
  const config = parseConfig(env);
  const db = createDb(config.DATABASE_URL);
  const queues = createQueues({
    redisUrl: config.REDIS_URL,
    cluster: config.REDIS_CLUSTER,
    prefix: config.REDIS_PREFIX,
    role: "producer",
  });
  const reset: string[] = [];
  try {
    // A producer queues nothing while disconnected: staged changes are cleared once it is up.
    await queues.ready(10_000);
    const ctx = {
      db,
      shops: createShopRepository(db, config.ENCRYPTION_KEY),
      pending: createPendingChanges(queues.redis, config.REDIS_PREFIX),
    };
    for (const domain of [DEMO_SHOP, FRESH_SHOP]) {
      if (!(await ctx.shops.find(domain)) && !(await db.session.count({ where: { shop: domain } }))) continue;
      await shopRedact(ctx, { shop: domain, topic: "shop/redact", payload: {} });
      // No merchant asked for it: the compliance log keeps only Shopify's requests.
      await db.complianceRequest.deleteMany({ where: { shopDomain: domain, topic: "shop/redact" } });
      reset.push(domain);
    }
  } finally {
    await queues.close();
    await db.$disconnect();
  }
  if (reset.length)
    say(
      `started before in this folder: the demo begins afresh (${reset.join(" and ")} removed from the database, as the emulator and the simulated store start empty: docs/offline-sandbox.md)`,
    );
}

let stopping = false;
async function stop(code: number) {
  stopping = true;
  await Promise.allSettled(closers.map((close) => close()));
  for (const c of children.reverse()) {
    try {
      if (c.pid) process.kill(-c.pid, "SIGTERM");
      else c.kill("SIGTERM");
    } catch {
      c.kill("SIGTERM"); // not a group leader (the local redis-server)
    }
  }
  await Promise.all(
    children.map((c) => (c.exitCode === null && c.signalCode === null ? new Promise((r) => c.once("exit", r)) : null)),
  );
  process.exit(code);
}

/** `{"ok":true,"db":"up","redis":"up"}` → "db up, redis up" (the JSON itself with --verbose). */
function healthWords(health: unknown): string {
  if (verbose) return JSON.stringify(health);
  const parts = Object.entries((health ?? {}) as Record<string, unknown>).filter(([k]) => k !== "ok");
  return parts.length ? parts.map(([k, v]) => `${k} ${String(v)}`).join(", ") : "ok";
}

/** Runs a command to its end, its output kept for when it fails. */
function runToEnd(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (c: Buffer) => (output += c));
    child.stderr.on("data", (c: Buffer) => (output += c));
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(" ")} exited ${code}:\n${output}`)),
    );
  });
}

async function main() {
  writeDefaultEnv();
  loadDotEnv(envFile);
  ensureOperatorPassword();
  mkdirSync(logDir, { recursive: true });
  say(
    `logs of the app server, worker, emulator and store: ${logDir}${verbose ? " (and here: --verbose)" : " (--verbose to see them here)"}`,
  );
  const redisUrl = await ensureRedis();
  const port = check ? await freePort() : devLocalPort("app");
  // ADMIN_LOCAL_BRIDGE: the app serves the App Bridge stand-in, as no Shopify admin is around it.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    REDIS_URL: redisUrl,
    PORT: String(port),
    NODE_ENV: "development",
    ADMIN_LOCAL_BRIDGE: "1",
    ADMIN_LOCAL_BRIDGE_SCRIPT: writeAppBridgeStandIn(".local"),
  };

  await step("applying database migrations", () => runToEnd("npx", ["prisma", "migrate", "deploy"], env));

  let store: { token: string; graphqlUrl: string; emulatorOrigin: string; controlUrl: string } | undefined;
  let storefrontOrigin = "";
  // The printed storefront flows, for the browser check to complete.
  let storefrontFlows: Omit<StorefrontFlows, "emulatorOrigin"> | undefined;
  // Reviews left on the storefront for the admin's moderation queue.
  let pending = 0;
  if (demo) {
    await resetLastRun(env);
    const emulatorPort = check ? await freePort() : devLocalPort("emulator");
    const storePort = check ? await freePort() : devLocalPort("store");
    const emulator = run(
      "emulator",
      "npx",
      ["tsx", "sandbox/emulator/main.ts", "--port", String(emulatorPort), "--quiet"],
      env,
    );
    await step("starting the reviews-service emulator", () =>
      waitForLine(emulator, /reviews emulator: base_url=(\S+)/, 60_000),
    );
    const emulatorOrigin = `http://127.0.0.1:${emulatorPort}`;
    Object.assign(env, {
      REVIEWS_API_URL: `${emulatorOrigin}/api`,
      REVIEWS_AUTH_URL: `${emulatorOrigin}/auth`,
      REVIEWS_RATE_URL: emulatorOrigin,
    });
    const sim = run(
      "store",
      "npx",
      [
        "tsx",
        "sandbox/simulated-store/main.ts",
        "--port",
        String(storePort),
        "--products",
        String(process.env.DEMO_PRODUCTS || 300),
        "--shop",
        DEMO_SHOP,
        "--webhook-url",
        `http://127.0.0.1:${port}/webhooks/bulk_operations/finish`,
        "--app-url",
        `http://127.0.0.1:${port}`,
        "--api-secret",
        String(env.SHOPIFY_API_SECRET),
      ],
      env,
    );
    const [, endpoint, token, controlUrl] = await step("starting the simulated Shopify store", () =>
      waitForLine(sim, /GraphQL endpoint:\s+(\S+)\s+access token:\s+(\S+)\s+control:\s+(\S+)/, 60_000),
    );
    // One simulated store stands in for both demo shops: one origin, no {shop} in it.
    env.SHOPIFY_ORIGIN = new URL(String(endpoint)).origin;
    store = { token: String(token), graphqlUrl: String(endpoint), emulatorOrigin, controlUrl: String(controlUrl) };
    say(`reviews emulator: ${emulatorOrigin}; simulated store: ${endpoint}`);
  }

  const worker = run("worker", "npx", ["tsx", "workers/index.ts"], env);
  const workerReady = waitForLine(worker, /worker connected to Redis/, 60_000);
  const viteArgs = ["remix", "vite:dev", "--host", "127.0.0.1", "--port", String(port), "--strictPort"];
  run("web", "npx", browserCheck ? [...viteArgs, "--force"] : viteArgs, env);

  const health = await step("starting the app server and the worker", async () => {
    const answer = await waitForHealth(`http://127.0.0.1:${port}/health`, 120_000);
    await workerReady;
    return answer;
  });
  say(`app server: http://127.0.0.1:${port} (health: ${healthWords(health)})`);
  say("worker: connected to Redis");
  const dashboardUrl = await startOperatorDashboard(env, check ? await freePort() : devLocalPort("operatorDashboard"));
  addresses.operator.push({
    label: `queue dashboard (user ${parseConfig(env).OPERATOR_USER}, password: OPERATOR_PASSWORD in ${envFile})`,
    url: dashboardUrl,
  });
  addresses.operator.push({ label: "app server health", url: `http://127.0.0.1:${port}/health` });
  if (check) await checkOperatorDashboard(dashboardUrl, env);
  if (store) {
    const result = await runCatalogDemo({
      env,
      storeControlUrl: store.controlUrl,
      emulatorOrigin: store.emulatorOrigin,
      say,
      progress,
    });
    if (result.status !== "completed") throw new Error(`demo catalog sync ${result.status}`);
    const orders = await runOrderDemo({
      env,
      storeControlUrl: store.controlUrl,
      emulatorOrigin: store.emulatorOrigin,
      say,
      progress,
      step,
      verbose,
    });
    if (!orders.matched)
      throw new Error(
        "demo orders: the reviews service does not hold every order at its story's status with the opt-outs the default policy implies",
      );
    const storefrontPort = check ? await freePort() : devLocalPort("storefront");
    const shop = await runStorefrontDemo({
      env,
      emulatorOrigin: store.emulatorOrigin,
      storeGraphqlUrl: store.graphqlUrl,
      storeAccessToken: store.token,
      appUrl: `http://127.0.0.1:${port}`,
      port: storefrontPort,
      say,
      step,
      check,
      deliveredOrders: orders.delivered,
    });
    closers.push(() => shop.storefront.close());
    storefrontFlows = {
      storefrontOrigin: shop.storefront.origin,
      handleOf: async (sku) => (await shop.storefront.reader.productById(sku))?.handle,
      guest: shop.guest,
      rate: shop.rate,
    };
    storefrontOrigin = shop.storefront.origin;
    // App Bridge's theme answer from the blocks this storefront renders: the setup guide's theme
    // step completes in the demo, as it would once a merchant added them to a real theme.
    writeAppBridgeStandIn(".local", { themeFrom: `${storefrontOrigin}${THEME_BLOCKS_PATH}` });
    addresses.storefront.push(...shop.addresses);
    const account = await runAccountDemo({
      storeControlUrl: store.controlUrl,
      emulatorOrigin: store.emulatorOrigin,
      storefrontOrigin: shop.storefront.origin,
      say,
      step,
      check,
    });
    addresses.account.push(account.address);
    await runShopAppDemo({
      env,
      emulatorOrigin: store.emulatorOrigin,
      storeGraphqlUrl: store.graphqlUrl,
      storeAccessToken: store.token,
      deliveredOrders: orders.delivered,
      say,
      progress,
      check,
    });
    await runRatingsDemo({
      emulatorOrigin: store.emulatorOrigin,
      storeGraphqlUrl: store.graphqlUrl,
      storeAccessToken: store.token,
      say,
      progress,
      check,
    });
    await seedDemoReviews({ emulatorOrigin: store.emulatorOrigin, say });
    // The queue's count as the admin will show it: the demo's, the seed's and the check's own.
    pending = await pendingAtService(store.emulatorOrigin);
    addresses.operator.push({
      label:
        "what the reviews service holds (the emulator's state: products, orders with their buyers' contacts, reviews)",
      url: `${store.emulatorOrigin}/__emulator/state?customer=${DEMO_ACCOUNT.customer}`,
    });
  }
  if (store) {
    await installFreshShop({ env, storeControlUrl: store.controlUrl });
    const demoAdmin = adminAddress(port, DEMO_SHOP, env);
    const freshAdmin = adminAddress(port, FRESH_SHOP, env);
    addresses.admin.push({
      label: `${DEMO_SHOP}: connected and synced; ${pending} reviews wait for moderation (session valid 12 hours)`,
      url: demoAdmin,
    });
    addresses.admin.push({
      label: `${FRESH_SHOP}: installed, not connected; enter customer key ${DEMO_ACCOUNT.customer}, client id ${DEMO_ACCOUNT.clientId}, client secret ${DEMO_ACCOUNT.clientSecret}`,
      url: freshAdmin,
    });
    if (check) {
      await checkAdmin(demoAdmin);
      const base = new URL(demoAdmin);
      if (browserCheck)
        await checkInBrowser(
          (pathname) => `${base.origin}${pathname}${base.search}`,
          base.origin,
          storefrontOrigin,
          { url: dashboardUrl, env },
          await serviceIds(store.emulatorOrigin),
          { ...storefrontFlows!, emulatorOrigin: store.emulatorOrigin },
        );
      else say("browser check: not run (--no-browser)");
    }
  } else {
    addresses.operator.unshift({
      label: "app server (--no-demo: no shop is connected)",
      url: `http://127.0.0.1:${port}`,
    });
  }
  if (check) say("check passed");
  for (const line of formatSummary(addresses, check ? undefined : "Ctrl-C stops everything")) say(line);
  if (check) await stop(0);
}

process.on("SIGINT", () => void stop(0));
process.on("SIGTERM", () => void stop(0));
main().catch((e) => {
  console.error(`[dev:local] ${(e as Error).message}`);
  void stop(1);
});
