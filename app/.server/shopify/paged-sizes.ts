// What one page of the paged reads carries of each product's or order's own connections; more
// continue with a query of their own. Small, because each multiplies the page's requested cost.
export const PAGED_VARIANTS = 25;
export const PAGED_COLLECTIONS = 10;
export const PAGED_LINE_ITEMS = 10;
