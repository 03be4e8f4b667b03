// The Prisma client (SQLite or PostgreSQL) and batched reads.
// Other folders import from here only; the rest of the folder is private to it.
export { inBatches, keysetPages } from "./batches";
export { createDb } from "./client";
export type { Db } from "./client";
