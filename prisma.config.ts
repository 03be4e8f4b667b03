import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { resolve } from "node:path";
import { createRequire } from "node:module";

// The Prisma CLI in driver-adapter mode ("js" schema engine): the native engines cannot be
// downloaded on our machines. DATABASE_URL picks the provider, and with it the schema and the
// migrations folder (prisma/sqlite or prisma/postgresql), both generated from prisma/models.prisma.

const databaseUrl = process.env.DATABASE_URL || "file:./prisma/dev.sqlite";
const provider = databaseUrl.startsWith("file:") ? "sqlite" : "postgresql";

// adapter-pg cannot deserialize the catalog types "char" (OID 18) and name (OID 19) that the schema
// engine reads while introspecting. In this CLI process only, present them as text (OID 25).
function presentCatalogTypesAsText() {
  const Result = createRequire(import.meta.url)("pg/lib/result.js") as {
    prototype: { addFields(fields: { dataTypeID: number }[]): void; __textCatalog?: boolean };
  };
  if (Result.prototype.__textCatalog) return;
  const addFields = Result.prototype.addFields;
  Result.prototype.addFields = function (fields) {
    for (const f of fields) if (f.dataTypeID === 18 || f.dataTypeID === 19) f.dataTypeID = 25;
    return addFields.call(this, fields);
  };
  Result.prototype.__textCatalog = true;
}

function pgAdapter() {
  presentCatalogTypesAsText();
  // Separate fields, not a connection string: given a string, adapter-pg's shadow-database code
  // keeps the real database name (see shared/notes/toolchain.md).
  const u = new URL(databaseUrl);
  return new PrismaPg({
    host: u.hostname,
    port: Number(u.port || 5432),
    user: decodeURIComponent(u.username) || undefined,
    password: decodeURIComponent(u.password) || undefined,
    database: u.pathname.slice(1),
  });
}

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: `prisma/${provider}/schema.prisma`,
  migrations: { path: `prisma/${provider}/migrations` },
  async adapter() {
    if (provider === "sqlite") return new PrismaBetterSQLite3({ url: resolve(databaseUrl.replace(/^file:/, "")) });
    return pgAdapter();
  },
});
