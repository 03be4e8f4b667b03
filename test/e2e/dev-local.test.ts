import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { deletePrefix, uniquePrefix } from "../helpers/redis";
import { SUMMARY_GROUPS, SUMMARY_HEADING } from "../../sandbox/dev-local/demo-summary";

// The README's first command, end to end: embedded defaults, migrations, app server, worker.
const dir = mkdtempSync(join(tmpdir(), "dev-local-"));
const prefix = uniquePrefix("dev-local");
// A run cut short by its timeout must not go on beside the next one on the same database.
let running: number | undefined;
afterAll(async () => {
  if (running) {
    try {
      process.kill(-running, "SIGTERM");
    } catch {
      // already gone
    }
  }
  rmSync(dir, { recursive: true, force: true });
  await deletePrefix(prefix);
});

// The lines of the browser check's storefront flows (sandbox/dev-local/browser-flows.ts).
const STOREFRONT_FLOWS = [
  /browser check: write a review: "Log in as" Ana Souza, "Write a review" on \/products\/\S+: sent, the service holds it as hers/,
  /browser check: guest verified review: logged out, order #\d+ and its buyer's e-mail: sent, a verified purchase/,
  /browser check: rating modal: the printed rating link opens the modal; rated inside it, it closed with thanks/,
  /browser check: account rating: "Rate your orders" as Ana: "Rate" opened the modal, rated inside it, the block shows her review/,
];

const envFile = join(dir, ".env");
const logDir = join(dir, "logs");

/** `npm run dev:local -- --check` in the test's folder, on its database: the output and exit code. */
async function devLocalCheck(...flags: string[]): Promise<{ output: string; code: number | null }> {
  // Only what a newcomer's shell has: none of the test suite's Shopify or service variables.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !/^(SHOPIFY_|REVIEWS_|SCOPES|ENCRYPTION_KEY|LOG_LEVEL|NODE_ENV|VITEST)/.test(k),
    ),
  );
  const child = spawn("npm", ["run", "dev:local", "--", "--check", ...flags], {
    env: {
      ...env,
      DEV_LOCAL_ENV_FILE: envFile,
      DEV_LOCAL_LOG_DIR: logDir,
      DATABASE_URL: `file:${join(dir, "dev.sqlite")}`,
      REDIS_PREFIX: prefix,
    } as unknown as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
    // A process group of its own, so that the whole of it can be stopped (see afterAll).
    detached: true,
  });
  running = child.pid;
  let output = "";
  child.stdout.on("data", (c) => (output += c));
  child.stderr.on("data", (c) => (output += c));
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  running = undefined;
  return { output, code };
}

describe("npm run dev:local", () => {
  it("GIVEN a fresh checkout THEN it brings up the app server, a worker, the emulator and a simulated store, syncs the demo catalog and orders, and shows a product page with reviews", async () => {
    const { output, code } = await devLocalCheck();
    // The children's lines go to their log files; the terminal shows only the demo's own lines.
    expect(readFileSync(join(logDir, "worker.log"), "utf8")).toContain("worker connected to Redis");
    expect(output).toContain(`logs of the app server, worker, emulator and store: ${logDir}`);
    expect(output).toContain("[dev:local] worker: connected to Redis");
    // (npm's own lines aside: its banner and this machine's config warnings)
    const foreign = output.split("\n").filter((l) => l !== "" && !/^(\[dev:local\]|> |npm warn )/.test(l));
    expect(foreign).toEqual([]);
    expect(output).toMatch(/app server: http:\/\/127\.0\.0\.1:\d+ \(health: db up, redis up\)/);
    // No JSON dumped without --verbose (the health answer, the sample orders).
    expect(output).not.toMatch(/^\[dev:local\]\s+[{}]/m);
    // Waits show a progress line: what it waits for, then how long it took.
    expect(output).toMatch(/^\[dev:local\] starting the app server and the worker: done \(\d+ (s|min \d\d s)\)$/m);
    expect(output).toMatch(/operator dashboard check: 401 without the password; with it, \d+ queues/);
    // A bar once Shopify has counted the products, then the final counters.
    expect(output).toMatch(
      /catalog sync \[#{30}\] 100% completed: read 300, sent 300, created 300, updated 0, unchanged 0, failed 0/,
    );
    expect(output).toContain("the reviews service now holds 300 products of demo-shop.myshopify.com");
    // The embedded admin opens offline from the printed address (App Bridge stand-in served by the app).
    expect(output).toContain("embedded admin: opens with the minted session token; App Bridge stand-in served");
    expect(output).toContain("24 demo reviews left on the storefront, waiting for moderation in the embedded admin");
    expect(output).toMatch(
      /http:\/\/127\.0\.0\.1:\d+\/app\?embedded=1&shop=demo-shop\.myshopify\.com&host=\S+&locale=en&id_token=\S+/,
    );
    // The order story (36 orders: 3 pending, 3 authorized, 6 paid, 6 shipped, 6 partly shipped,
    // 8 delivered, 4 cancelled), every change a signed webhook through the app's routes; then the
    // demo reads the emulator: each row is "status, what the story implies, what the service holds".
    expect(output).toMatch(
      /order story: \d+ webhooks sent \(orders\/create 36, [^)]*fulfillment_events\/create \d+[^)]*\); all acknowledged/,
    );
    const upstream = { created: 3, authorized: 3, paid: 6, shipped: 12, delivered: 8, cancelled: 4 };
    for (const [status, n] of Object.entries(upstream))
      expect(output).toMatch(new RegExp(`^\\[dev:local\\]\\s+${status}\\s+${n}\\s+${n}$`, "m"));
    expect(output).toMatch(/^\[dev:local\]\s+total\s+36\s+36$/m);
    expect(output).toContain(
      "the reviews service now holds 36 of the 36 orders placed: created 3, authorized 3, paid 6, shipped 12, delivered 8, cancelled 4",
    );
    // Sample orders are shown PII-light: no buyer e-mail in the clear.
    expect(output).toMatch(/sample order #\d+ \(placed and paid → shipped first line( → buyer [^)]+)?\)/);
    // Buyers' consent: read once per new customer, then changed by consent webhooks; every order
    // upstream carries the opt-outs the default policy implies, printed per channel as
    // "channel, opted out (policy / service), allowed (policy / service)".
    expect(output).toMatch(
      /customers_email_marketing_consent\/update 1, customers_marketing_consent\/update \d+, customers_whats_app_marketing_consent\/update 1\); all acknowledged/,
    );
    for (const channel of ["e-mail", "SMS", "WhatsApp"]) {
      expect(output).toMatch(new RegExp(`^\\[dev:local\\]\\s+${channel}\\s+(\\d+) / \\1\\s+(\\d+) / \\2$`, "m"));
    }
    expect(output).toContain("opt-outs as the default policy implies: 36 of 36 orders");
    expect(output).not.toMatch(/[\w.]+@example\.(com|net)/);
    const logs = readdirSync(logDir).map((f) => readFileSync(join(logDir, f), "utf8"));
    expect(logs.length).toBe(4);
    for (const log of logs) expect(log).not.toMatch(/[\w.]+@example\.(com|net)/);
    // The storefront act: reviews for the demo catalog, the back-sync into the store's metafields,
    // the local storefront drawing a product page with stars and reviews, page 2 through the proxy.
    expect(output).toMatch(/reviews: the reviews service now holds \d+ published reviews on \d+ of 300 products/);
    expect(output).toMatch(
      /^\[dev:local\] {3}product page with the most reviews \(\d+ reviews\): sort, filter and page them\n\[dev:local\] {5}http:\/\/127\.0\.0\.1:\d+\/products\/[a-z0-9-]+$/m,
    );
    // Buyers' verified reviews reached the store as Shopify's standard product_review metaobjects
    // (read back over GraphQL), before the ratings act checks the totals in the metafields.
    const reviewed = /Shop app: (\d+) buyers with an account reviewed a product of their delivered order/.exec(output);
    expect(Number(reviewed?.[1])).toBeGreaterThan(0);
    const held = /Shop app: the store holds (\d+) product_review metaobjects/.exec(output);
    expect(Number(held?.[1])).toBeGreaterThanOrEqual(Number(reviewed?.[1]));
    // Every demo product with published reviews has its ratings in the store, read back over GraphQL.
    expect(output).toMatch(
      /back-sync: \d+ products have ratings in the store \(reviews\.rating, reviews\.rating_count, rating_value, snapshot\); (\d+) of the \1 demo products with published reviews match the service/,
    );
    expect(output).toContain(
      "ratings check: every demo product with reviews has its metafields in the simulated store",
    );
    expect(output).toMatch(
      /storefront check: stars \("\d\.\d out of 5 stars, \d+ reviews"\) and \d+ reviews on the product page; the app proxy answers page 2 through the storefront/,
    );
    expect(output).toMatch(/write a review: choose "Log in as" Ana Souza/);
    expect(output).toMatch(/questions: further down, "Questions and answers" lists 8 questions/);
    expect(output).toMatch(
      /a guest with an order: logged out, give order #\d+ and its buyer's e-mail.*\n\[dev:local\] {5}http:\/\/127\.0\.0\.1:\d+\/products\/\S+$/m,
    );
    expect(output).toMatch(
      /the rating modal, as a link in the service's e-mail would open it\n\[dev:local\] {5}http:\/\/127\.0\.0\.1:\d+\/collections\/all\?rv-rate-order=\d+&rv-rate-token=\S+$/m,
    );
    expect(output).toMatch(
      /guest review check: a logged-out shopper named order #\d+ and its e-mail; the service holds the review as a verified purchase/,
    );
    expect(output).toContain(
      "review writing check: a review written as Ana through the storefront reached the service (user 7001, source web)",
    );
    expect(output).toMatch(/rate your order: Ana Souza has 3 orders \(#\d+ delivered, #\d+ delivered, #\d+ paid\)$/m);
    expect(output).toMatch(
      /"Rate your orders", logged in as Ana Souza: .*\n\[dev:local\] {5}http:\/\/127\.0\.0\.1:\d+\/account\/login-as\?customer=7001&return=%2Faccount$/m,
    );
    expect(output).toMatch(
      /account check: the account page's block shows 3 orders with \d Rate links( \(\d already reviewed\))?, from one find-batch call/,
    );
    // Every admin page and every storefront page printed, opened in Chromium: no error, and it answers.
    expect(output).toContain(
      "browser check: admin /app/reviews: selecting a review shows the bulk bar; filters apply in the app",
    );
    expect(output).toContain("browser check: admin /app/settings: a change shows the save bar");
    expect(output).toMatch(/browser check: admin \/app\/report: "Export CSV" downloaded \S+\.csv/);
    expect(output).toContain('browser check: admin /app/sync: "Sync everything now" queued a sync');
    expect(output).toMatch(/browser check: [3-9] storefront pages the demo printed load in Chromium with no error/);
    expect(output).toContain("browser check: operator dashboard lists the 4 queues");
    // Each printed storefront flow completed in Chromium as a shopper would.
    for (const flow of STOREFRONT_FLOWS) expect(output).toMatch(flow);
    // A dependency Vite found only on a page visit put two copies of React in that page.
    expect(output).toContain("browser check: Vite bundled no dependency late, every page opened");
    expect(output).toContain("check passed");
    // The addresses come last, grouped: admin, storefront, account, operator.
    const lines = output
      .split("\n")
      .filter((l) => l.startsWith("[dev:local] "))
      .map((l) => l.slice("[dev:local] ".length));
    const block = lines.slice(lines.indexOf(SUMMARY_HEADING));
    expect(lines.indexOf(SUMMARY_HEADING)).toBeGreaterThan(lines.indexOf("check passed"));
    expect(block.filter((l) => !l.startsWith(" "))).toEqual([SUMMARY_HEADING, ...SUMMARY_GROUPS.map((g) => g.title)]);
    expect(block.join("\n")).toMatch(/ {4}http:\/\/127\.0\.0\.1:\d+\/ops\/queues\n/);
    expect(lines.slice(0, lines.indexOf(SUMMARY_HEADING)).some((l) => /id_token=/.test(l))).toBe(false);
    expect(code).toBe(0);
    expect(readFileSync(envFile, "utf8")).toMatch(/^ENCRYPTION_KEY=[0-9a-f]{64}$/m);
    expect(readFileSync(envFile, "utf8")).toMatch(/^OPERATOR_PASSWORD=\S{12,}$/m);
  }, 600_000);

  it("GIVEN it ran before in this folder, the fresh shop connected and its token since refused THEN a second start begins the demo afresh, database and emulator agreeing, and every printed flow completes again", async () => {
    // What a start after the first finds: the merchant connected the fresh shop in the admin, and
    // the demo shop's token lapsed (its simulated store is gone, so the worker's refresh was refused).
    const db = new Database(join(dir, "dev.sqlite"));
    const parked = db
      .prepare("UPDATE Shop SET tokenState = 'needs-merchant', tokenStateReason = 'invalid_grant' WHERE domain = ?")
      .run("demo-shop.myshopify.com");
    const connected = db
      .prepare("UPDATE Shop SET customerKey = 'demo-store', clientId = 'demo-client', connectedAt = ? WHERE domain = ?")
      .run(Date.now(), "fresh-shop.myshopify.com");
    db.close();
    expect(parked.changes).toBe(1);
    expect(connected.changes).toBe(1);
    const { output, code } = await devLocalCheck();
    expect(output).toMatch(
      /started before in this folder: the demo begins afresh \(demo-shop\.myshopify\.com and fresh-shop\.myshopify\.com removed from the database/,
    );
    expect(output).toMatch(
      /catalog sync \[#{30}\] 100% completed: read 300, sent 300, created 300, updated 0, unchanged 0, failed 0/,
    );
    expect(output).toContain(
      "the reviews service now holds 36 of the 36 orders placed: created 3, authorized 3, paid 6, shipped 12, delivered 8, cancelled 4",
    );
    expect(output).toContain("opt-outs as the default policy implies: 36 of 36 orders");
    expect(output).toContain(
      "ratings check: every demo product with reviews has its metafields in the simulated store",
    );
    expect(output).toContain("24 demo reviews left on the storefront, waiting for moderation in the embedded admin");
    expect(output).toContain("embedded admin: opens with the minted session token; App Bridge stand-in served");
    // The printed flows complete on the second run as on the first.
    expect(output).toMatch(/guest review check: .*the service holds the review as a verified purchase/);
    expect(output).toContain(
      "review writing check: a review written as Ana through the storefront reached the service",
    );
    expect(output).toContain("browser check: admin /app/reviews");
    expect(output).toMatch(/browser check: [3-9] storefront pages the demo printed load in Chromium with no error/);
    for (const flow of STOREFRONT_FLOWS) expect(output).toMatch(flow);
    expect(output).toContain("check passed");
    expect(code).toBe(0);
    // What the demo printed is what the database holds: the fresh shop installed, not connected.
    expect(output).toMatch(/fresh-shop\.myshopify\.com: installed, not connected/);
    const after = new Database(join(dir, "dev.sqlite"));
    const fresh = after
      .prepare("SELECT customerKey, connectedAt FROM Shop WHERE domain = ?")
      .get("fresh-shop.myshopify.com");
    after.close();
    expect(fresh).toEqual({ customerKey: null, connectedAt: null });
    // The printed count of reviews waiting is the service's.
    expect(output).toMatch(/demo-shop\.myshopify\.com: connected and synced; \d+ reviews wait for moderation/);
  }, 600_000);
});
