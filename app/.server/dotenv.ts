import { existsSync } from "node:fs";

/**
 * Loads `.env` from the working directory when present, without overriding variables already set.
 * `npm run dev:local` writes one with embedded defaults; production sets real variables instead.
 */
export function loadDotEnv(path = ".env") {
  if (!existsSync(path)) return;
  const before = { ...process.env };
  process.loadEnvFile(path);
  for (const [k, v] of Object.entries(before)) process.env[k] = v;
}
