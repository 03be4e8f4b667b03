// Queries whose size grows with the number of shops (or products) are cut into batches: SQLite
// refuses a statement with more bound parameters than its build allows (some builds stop at 999:
// the back-sync's tick failed from 997 shops on), and PostgreSQL's protocol stops at 65,535.

/** Values bound in one `in` list; well under SQLite's smallest limit, with room for other parameters. */
export const IN_BATCH = 500;

/** Runs `fn` on consecutive slices of `items` (each at most `size` long) and joins the answers. */
export async function inBatches<T, R>(
  items: readonly T[],
  fn: (slice: T[]) => Promise<R[]>,
  size = IN_BATCH,
): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await fn(items.slice(i, i + size))));
  return out;
}

/**
 * Reads a table in pages ordered by a unique string key (keyset pagination: each page starts after
 * the last key of the one before), so no statement grows with the table and memory holds one page.
 */
export async function* keysetPages<T extends { id: string }>(
  page: (after: string | null, take: number) => Promise<T[]>,
  size = IN_BATCH,
): AsyncGenerator<T[]> {
  let after: string | null = null;
  for (;;) {
    const rows = await page(after, size);
    if (rows.length) yield rows;
    if (rows.length < size) return;
    after = rows[rows.length - 1].id;
  }
}
