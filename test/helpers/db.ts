import { createHash, randomBytes } from "node:crypto";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from "node:fs";
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

/**
 * A SQLite file with the committed migrations applied, made once per set of migrations and copied for
 * each test database: applying them to every new database was the largest single cost in the
 * integration files' own code (better-sqlite3's exec).
 */
function migratedSqliteTemplate(): string {
  const sql = migrationSql("sqlite");
  const hash = createHash("sha256").update(sql.join("\n")).digest("hex").slice(0, 16);
  const dir = join(process.cwd(), "node_modules", ".cache", "reviews-test-db");
  const template = join(dir, `${hash}.sqlite`);
  if (existsSync(template)) return template;
  mkdirSync(dir, { recursive: true });
  // Written beside and renamed into place, so a file running at the same time never copies half of it.
  const partial = `${template}.${process.pid}.${randomBytes(4).toString("hex")}`;
  const raw = new Database(partial);
  for (const statement of sql) raw.exec(statement);
  raw.close();
  renameSync(partial, template);
  return template;
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
    if (migrate) copyFileSync(migratedSqliteTemplate(), file);
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
