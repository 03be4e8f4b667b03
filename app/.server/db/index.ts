// The Prisma client (SQLite or PostgreSQL), batched reads, and group commit of small reads and writes.
// Other folders import from here only; the rest of the folder is private to it.
export { inBatches, keysetPages } from "./batches";
export { createDb } from "./client";
export type { Db } from "./client";
export { groupCommit, groupOf } from "./group-commit";
export type { Grouped, GroupOptions } from "./group-commit";
