// Writes a new migration for both providers from the change of prisma/models.prisma since the last
// commit: `npm run db:migration -- <name>`. The schema engine runs as WebAssembly (no download), and
// diffing two datamodels reads no database (the PostgreSQL side still connects to one:
// MIGRATION_PG_URL, default the local server). Review the SQL before committing it.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { providers, schemaFor, type Provider } from "./schemas";

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error("usage: npm run db:migration -- <name in snake_case>");
  process.exit(2);
}
const pgUrl = process.env.MIGRATION_PG_URL || "postgresql://postgres@127.0.0.1:5432/postgres";
const stamp = new Date().toISOString().replace(/[-:T]/g, "").slice(0, 14);
const tmp = mkdtempSync(join(tmpdir(), "migration-"));
const previous = execFileSync("git", ["show", "HEAD:prisma/models.prisma"], { encoding: "utf8" });
const current = readFileSync("prisma/models.prisma", "utf8");

for (const provider of Object.keys(providers) as Provider[]) {
  const from = join(tmp, `${provider}-from.prisma`);
  const to = join(tmp, `${provider}-to.prisma`);
  writeFileSync(from, schemaFor(provider, previous));
  writeFileSync(to, schemaFor(provider, current));
  const sql = execFileSync(
    "npx",
    ["prisma", "migrate", "diff", "--from-schema-datamodel", from, "--to-schema-datamodel", to, "--script"],
    // In driver-adapter mode the CLI opens its adapter even to diff two datamodels, so the
    // PostgreSQL side needs a server that answers (nothing is written to it).
    {
      encoding: "utf8",
      env: { ...process.env, DATABASE_URL: provider === "sqlite" ? "file:./prisma/dev.sqlite" : pgUrl },
    },
  );
  const dir = join("prisma", provider, "migrations", `${stamp}_${name}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "migration.sql"), sql);
  console.log(`wrote ${dir}/migration.sql`);
}
