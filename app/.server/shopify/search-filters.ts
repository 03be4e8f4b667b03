// Shopify's search syntax for the `query:` argument of connections, built from checked values only:
// a date that is not ISO 8601 would otherwise change what the filter means.

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/;

export function isoDate(label: string, value: string | Date): string {
  const s = value instanceof Date ? value.toISOString() : value;
  if (!ISO_DATE.test(s)) throw new Error(`${label}: not an ISO 8601 date: ${JSON.stringify(s)}`);
  return s;
}

/** Orders created at or after a date, as the orders backfill reads them. */
export function ordersCreatedSinceFilter(createdSince: string | Date): string {
  return `created_at:>='${isoDate("createdSince", createdSince)}'`;
}
