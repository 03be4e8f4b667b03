import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// The "Rate your order" UI extension (thank-you and customer account order status) built the way
// `shopify app deploy` builds it, by the Shopify CLI on this machine without a Partner account:
// one bundle registering both targets, with the app's address left to the CLI's APP_URL and no
// secret of the app's environment in it.

const DIR = join(process.cwd(), "extensions", "order-reviews-prompt");
const BUNDLE = join(DIR, "dist", "order-reviews-prompt.js");
// The admin block on the customer page, built by the same run.
const CUSTOMER_DIR = join(process.cwd(), "extensions", "customer-reviews-block");
const CUSTOMER_BUNDLE = join(CUSTOMER_DIR, "dist", "customer-reviews-block.js");

describe("the Rate your order UI extension", () => {
  it("GIVEN the Shopify CLI THEN it builds offline into one bundle that registers both targets and carries no secret", () => {
    rmSync(join(DIR, "dist"), { recursive: true, force: true });
    rmSync(join(CUSTOMER_DIR, "dist"), { recursive: true, force: true });
    const secret = "build-time-secret-that-must-not-ship";
    const run = spawnSync("npx", ["shopify", "app", "build", "--skip-dependencies-installation"], {
      encoding: "utf8",
      env: { ...process.env, SHOPIFY_CLI_NO_ANALYTICS: "1", SHOPIFY_API_SECRET: secret },
      timeout: 240_000,
    });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/order-reviews-prompt successfully built/);
    expect(existsSync(BUNDLE)).toBe(true);
    const bundle = readFileSync(BUNDLE, "utf8");
    expect(bundle).toContain('shopify.extend("purchase.thank-you.block.render"');
    expect(bundle).toContain('shopify.extend("customer-account.order-status.block.render"');
    expect(bundle).toContain("/extensions/thank-you");
    expect(bundle).toContain("/extensions/order-status");
    expect(bundle).not.toContain(secret);
    const customerBlock = readFileSync(CUSTOMER_BUNDLE, "utf8");
    expect(customerBlock).toContain('shopify.extend("admin.customer-details.block.render"');
    expect(customerBlock).toContain("/extensions/customer-reviews");
    expect(customerBlock).not.toContain(secret);
  }, 300_000);

  it("GIVEN its locales THEN every string the blocks use is there in English, Portuguese and Spanish", () => {
    const keys = (o: unknown, prefix = ""): string[] =>
      Object.entries(o as Record<string, unknown>).flatMap(([k, v]) =>
        typeof v === "object" && v && !("other" in v) ? keys(v, `${prefix}${k}.`) : [`${prefix}${k}`],
      );
    const locales = Object.fromEntries(
      readdirSync(join(DIR, "locales")).map((f) => [
        f,
        keys(JSON.parse(readFileSync(join(DIR, "locales", f), "utf8"))),
      ]),
    );
    expect(Object.keys(locales).sort()).toEqual(["en.default.json", "es.json", "pt-BR.json"]);
    for (const list of Object.values(locales)) expect(list.sort()).toEqual(locales["en.default.json"]!.sort());
    const used = ["OrderStatusBlock.tsx", "ThankYouBlock.tsx", "RateRows.tsx"].flatMap((f) =>
      [...readFileSync(join(DIR, "src", f), "utf8").matchAll(/\bt\("([^"]+)"/g)].map((m) => m[1]!),
    );
    expect(used.length).toBeGreaterThan(5);
    for (const key of used) expect(locales["en.default.json"]).toContain(key);
  });
});
