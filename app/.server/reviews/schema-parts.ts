import { z } from "zod";

// The building blocks the reviews service's schemas share.

export const str = z.string();
export const optStr = z.string().optional();
export const optBool = z.boolean().optional();
/** Dates in `YYYY-MM-DD`, the form the list endpoints document for `from`/`to`. */
export const ymd = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "expected YYYY-MM-DD");
export const skip = z.int().min(0);
export const count = z.int().min(0);
