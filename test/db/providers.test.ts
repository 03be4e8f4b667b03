import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../helpers/db";
import { createShopRepository } from "../../app/.server/shops/shop.repository";
import type { DbProvider } from "../../app/.server/db/client";

const KEY = "cd".repeat(32);

// Both providers, each migrated by the Prisma CLI from the committed migrations (what `npm run setup`
// does in production), then used through the one repository.
describe.each<DbProvider>(["sqlite", "postgresql"])("database on %s", (provider) => {
  let t: TestDb;
  afterAll(async () => t?.drop());

  it("GIVEN an empty database WHEN prisma migrate deploy runs THEN every committed migration applies", async () => {
    t = await createTestDb(provider, { migrate: false });
    const env = { ...process.env, DATABASE_URL: t.url };
    const deploy = spawnSync("npx", ["prisma", "migrate", "deploy"], { env, encoding: "utf8" });
    expect(deploy.stderr + deploy.stdout).toContain("successfully applied");
    expect(deploy.status).toBe(0);
    // Every committed migration recorded as applied (what `prisma migrate status` reads, without a
    // second CLI run: each takes most of a core for seconds).
    const committed = readdirSync(join("prisma", provider, "migrations"), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    const applied = await t.db.$queryRawUnsafe<{ migration_name: string }[]>(
      "SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL",
    );
    expect(applied.map((r) => r.migration_name).sort()).toEqual(committed);
    expect(committed.length).toBeGreaterThan(0);
  }, 180_000);

  it("GIVEN a connected shop THEN the secret is stored encrypted, read back through the key and masked in status", async () => {
    const shops = createShopRepository(t.db, KEY);
    await shops.connect({
      domain: "Alpha-Store.myshopify.com",
      customerKey: "alpha",
      clientId: "cid",
      clientSecret: "super-secret-value",
    });
    const row = await t.db.shop.findUniqueOrThrow({ where: { domain: "alpha-store.myshopify.com" } });
    expect(row.clientSecretEncrypted).not.toContain("super-secret-value");
    const account = await shops.account("alpha-store.myshopify.com", {
      apiUrl: "http://a",
      authUrl: "http://b",
      rateUrl: "http://c",
    });
    expect(account).toMatchObject({ customer: "alpha", clientSecret: "super-secret-value", apiUrl: "http://a" });
    const status = await shops.status("alpha-store.myshopify.com");
    expect(status.clientSecret).toBe("su••••ue");
    expect(JSON.stringify(status)).not.toContain("super-secret-value");
  });

  it("GIVEN settings THEN they are validated by zod and stored as typed JSON", async () => {
    const shops = createShopRepository(t.db, KEY);
    const next = await shops.updateSettings("alpha-store.myshopify.com", { catalog: { variantKey: "sku" } });
    expect(next.catalog.variantKey).toBe("sku");
    expect(next.orders.orderIdSource).toBe("id");
    expect((await shops.settings("alpha-store.myshopify.com")).catalog.variantKey).toBe("sku");
    await expect(
      shops.updateSettings("alpha-store.myshopify.com", { catalog: { variantKey: "title" } }),
    ).rejects.toThrow();
  });

  it("GIVEN an uninstall delivered twice THEN the second changes nothing", async () => {
    const shops = createShopRepository(t.db, KEY);
    const first = await shops.markUninstalled("alpha-store.myshopify.com");
    const second = await shops.markUninstalled("alpha-store.myshopify.com");
    expect(first?.installState).toBe("uninstalled");
    expect(second?.uninstalledAt?.getTime()).toBe(first?.uninstalledAt?.getTime());
    expect(await shops.markUninstalled("never-installed.myshopify.com")).toBeNull();
  });
});

describe("schemas", () => {
  it("GIVEN prisma/models.prisma THEN both provider schemas are generated from it and up to date", () => {
    const run = spawnSync("npx", ["tsx", "prisma/schemas.ts", "--check"], { encoding: "utf8" });
    expect(run.stderr).not.toContain("stale");
    expect(run.status).toBe(0);
  });
});
