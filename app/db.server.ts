import { loadConfig } from "./.server/config";
import { createDb, type Db } from "./.server/db/client";

// One client per process, kept across Vite's hot reloads in development.
declare global {
  var __reviewsDb: Db | undefined;
}

const prisma: Db = globalThis.__reviewsDb ?? createDb(loadConfig().DATABASE_URL);
if (process.env.NODE_ENV !== "production") globalThis.__reviewsDb = prisma;

export default prisma;
