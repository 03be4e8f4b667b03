// What one page of the paged reads carries of each product's or order's own connections; more
// continue with a query of their own. Small, because each multiplies the page's requested cost
// (Shopify refuses a query over 1,000 requested points; query-cost.test.ts holds every document to it).
export const PAGED_VARIANTS = 10;
export const PAGED_COLLECTIONS = 10;
export const PAGED_LINE_ITEMS = 10;

// A query of one product's variants or one order's line items: as many as its requested cost
// allows (a variant costs 1 + its barcodes connection, a line item 4).
export const VARIANTS_PER_QUERY = 100;
export const LINE_ITEMS_PER_QUERY = 200;

/**
 * Typed barcodes read per variant (Shopify allows 20; the first is what `barcode` returned). A GTIN
 * is looked for among these; more would multiply every variant's cost for codes merchants rarely
 * keep past the first few.
 */
export const VARIANT_BARCODES = 5;
