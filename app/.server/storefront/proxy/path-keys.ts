// The keys the app proxy's paths carry, checked before anything is asked of the service.

/** A product key as the app sends it to the service (the catalog's SKU). */
export const PRODUCT_KEY = /^[A-Za-z0-9_.:-]{1,100}$/;
/** A review id. */
export const REVIEW_ID = /^[A-Za-z0-9_-]{1,64}$/;
