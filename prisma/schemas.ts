// Writes one schema per provider from prisma/models.prisma, so the models are defined once.
// `--check` exits 1 when a written schema is stale (used by the test suite).
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

// The CLI needs a url even in driver-adapter mode (without one it downloads a query engine), and
// warns about a hard-coded PostgreSQL URL: that one comes from the environment (prisma/generate.ts
// gives `prisma generate` a placeholder); the app and the migrations pass their own adapter.
export const providers = {
  sqlite: { url: '"file:./dev.sqlite"', output: undefined },
  postgresql: { url: 'env("DATABASE_URL")', output: "../generated/postgresql" },
} as const;

export type Provider = keyof typeof providers;

export function schemaFor(provider: Provider, models: string): string {
  const { url, output } = providers[provider];
  const out = output ? `\n  output     = "${output}"` : "";
  return `// Generated from prisma/models.prisma by prisma/schemas.ts. Edit the models there.

generator client {
  provider        = "prisma-client-js"
  engineType      = "client"${out}
}

// The CLI needs a url here even in driver-adapter mode; the app passes its own adapter.
datasource db {
  provider = "${provider}"
  url      = ${url}
}

${models.trim()}
`;
}

export function schemaPath(provider: Provider): string {
  return join(here, provider, "schema.prisma");
}

function main() {
  const models = readFileSync(join(here, "models.prisma"), "utf8");
  const check = process.argv.includes("--check");
  let stale = false;
  for (const provider of Object.keys(providers) as Provider[]) {
    const path = schemaPath(provider);
    const want = schemaFor(provider, models);
    let have = "";
    try {
      have = readFileSync(path, "utf8");
    } catch {
      /* absent: written below */
    }
    if (have === want) continue;
    if (check) {
      console.error(`${path} is stale: run npm run db:schemas`);
      stale = true;
      continue;
    }
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, want);
    console.log(`wrote ${path}`);
  }
  process.exit(stale ? 1 : 0);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
