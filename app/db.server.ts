import { loadConfig } from "./.server/config";
import { createDb, type Db } from "./.server/db";
import { onClose } from "./.server/lifecycle";

// One client per process, kept across Vite's hot reloads in development.
declare global {
  var __reviewsDb: Db | undefined;
}

const prisma: Db = globalThis.__reviewsDb ?? createDb(loadConfig().DATABASE_URL);
if (process.env.NODE_ENV !== "production") globalThis.__reviewsDb = prisma;
onClose("prisma", () => prisma.$disconnect());

export default prisma;
