import { spawnSync } from "node:child_process";
import { schemaPath, type Provider } from "./schemas";

// `npm run db:generate`: one Prisma client per provider. The PostgreSQL schema reads its url from
// DATABASE_URL (a hard-coded one makes every `prisma generate` warn); generating needs some value
// there, never a real database, so a placeholder is given when the variable holds another kind.
const placeholder: Record<Provider, string> = {
  sqlite: "file:./dev.sqlite",
  postgresql: "postgresql://localhost:5432/reviews",
};

for (const provider of ["sqlite", "postgresql"] as const) {
  const current = process.env.DATABASE_URL ?? "";
  const fits = provider === "sqlite" ? current.startsWith("file:") : /^postgres(ql)?:\/\//.test(current);
  const result = spawnSync("npx", ["prisma", "generate", "--schema", schemaPath(provider)], {
    stdio: "inherit",
    env: { ...process.env, DATABASE_URL: fits ? current : placeholder[provider], PRISMA_HIDE_UPDATE_MESSAGE: "1" },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
