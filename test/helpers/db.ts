import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { createDb, type Db, type DbProvider } from "../../app/.server/db/client";

// A database of the test file's own, with the committed migrations applied: a temporary SQLite file,
// or a fresh PostgreSQL database on 127.0.0.1 (PG_URL) that is dropped afterwards.

export const PG_ADMIN_URL = process.env.PG_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

export function migrationSql(provider: DbProvider): string[] {
  const dir = join(process.cwd(), "prisma", provider, "migrations");
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()
    .map((name) => readFileSync(join(dir, name, "migration.sql"), "utf8"));
}

export interface TestDb {
  url: string;
  db: Db;
  drop(): Promise<void>;
}

export async function createTestDb(
  provider: DbProvider = "sqlite",
  options: { migrate?: boolean } = {},
): Promise<TestDb> {
  const migrate = options.migrate ?? true;
  if (provider === "sqlite") {
    const dir = mkdtempSync(join(tmpdir(), "reviews-db-"));
    const file = join(dir, "test.sqlite");
    if (migrate) {
      const raw = new Database(file);
      for (const sql of migrationSql("sqlite")) raw.exec(sql);
      raw.close();
    }
    const url = `file:${file}`;
    const db = createDb(url);
    return {
      url,
      db,
      async drop() {
        await db.$disconnect();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `reviews_test_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = PG_ADMIN_URL.replace(/\/[^/]*$/, `/${name}`);
  if (migrate) {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    for (const sql of migrationSql("postgresql")) await c.query(sql);
    await c.end();
  }
  const db = createDb(url);
  return {
    url,
    db,
    async drop() {
      await db.$disconnect();
      const a = new pg.Client({ connectionString: PG_ADMIN_URL });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}
