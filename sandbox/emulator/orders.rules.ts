// Order validation and the order record, as pure functions.
//
// Choices where the spec says "not shown" (also in README.md):
// - Mandatory fields: `orderId` (non-empty string) only; everything else is optional but typed.
//   `status` defaults to `created`; `createdDate` defaults to the time of receipt.
// - Date-times accept the sample form `YYYY-MM-DD HH:mm`, `YYYY-MM-DDTHH:mm[:ss[.sss]]` and an
//   optional `Z`/`±hh:mm` offset; without an offset they are read as UTC. They are stored and
//   returned as ISO 8601 UTC. Date fields (`estimatedDeliveryDate`, `deliveredDate`) accept
//   `YYYY-MM-DD` (kept as is) or a date-time (stored as ISO UTC).
// - Version 1 items need `sku`; version 2 items need `productId` (the only item field the spec does
//   not mark optional).
// - The `name` of the version 2 response is abbreviated "Jane Doe" → "Jane D." (first name and
//   initial of the last word), as the sample shows.
// - Any status transition is accepted (allowed sequences: not shown).
import { z } from "zod";
import type { StoredOrder } from "./types";

export const V1_STATUSES = ["created", "authorized", "shipped", "delivered"] as const;
export const V2_STATUSES = ["created", "authorized", "paid", "invoiced", "shipped", "delivered", "cancelled"] as const;

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

/** Any accepted date-time form → ISO 8601 UTC, or null. */
export function parseDateTime(raw: string): string | null {
  const m = DATE_TIME.exec(raw.trim());
  if (!m) return null;
  const [, y, mo, d, h = "00", mi = "00", s = "00", frac = "", tz] = m;
  const offset = !tz || tz.toUpperCase() === "Z" ? "Z" : tz.length === 5 ? `${tz.slice(0, 3)}:${tz.slice(3)}` : tz;
  const ms = frac ? frac.slice(0, 4).padEnd(4, "0") : "";
  const iso = `${y}-${mo}-${d}T${h}:${mi}:${s}${ms}${offset}`;
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return null;
  // Date.parse rolls 2024-02-30 over to March; reject instead.
  if (new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d))).getUTCDate() !== Number(d)) return null;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;
  return new Date(t).toISOString();
}

/** `YYYY-MM-DD` kept as is; a date-time becomes ISO UTC; null when neither. */
export function parseDateField(raw: string): string | null {
  const trimmed = raw.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(trimmed)) return parseDateTime(trimmed) ? trimmed : null;
  return parseDateTime(trimmed);
}

const str = z.string();
const nonEmpty = z.string().refine((s) => s.trim().length > 0, "must be a non-empty string");
const dateTime = z
  .string()
  .refine((s) => parseDateTime(s) !== null, "must be a date-time such as 2024-05-01 13:45 or ISO 8601")
  .transform((s) => parseDateTime(s)!);
const dateField = z
  .string()
  .refine((s) => parseDateField(s) !== null, "must be a date YYYY-MM-DD")
  .transform((s) => parseDateField(s)!);

const common = {
  orderId: nonEmpty,
  createdDate: dateTime.optional(),
  userId: str.optional(),
  estimatedDeliveryDate: dateField.optional(),
  deliveredDate: dateField.optional(),
  name: str.optional(),
  email: str.optional(),
  phone: str.optional(),
  pointOfSale: str.optional(),
  deliveryMethod: str.optional(),
  optOutEmail: z.boolean().optional(),
  optOutSMS: z.boolean().optional(),
  optOutWhatsApp: z.boolean().optional(),
};

export const orderV1Schema = z.object({
  ...common,
  version: z.literal(1).optional(),
  status: z.enum(V1_STATUSES, { error: `status must be one of ${V1_STATUSES.join(", ")}` }).optional(),
  items: z.array(z.object({ sku: nonEmpty })).optional(),
});

export const productDataSchema = z.object({
  name: str.optional(),
  productName: str.optional(),
  brand: str.optional(),
  brandName: str.optional(),
  mpn: str.optional(),
  ean: str.optional(),
  gtin: str.optional(),
  url: str.optional(),
  image: str.optional(),
  categories: z.array(str).optional(),
  categoryName: str.optional(),
});

export const orderItemV2Schema = z.object({
  productId: nonEmpty,
  sku: str.optional(),
  skuName: str.optional(),
  status: z.enum(V2_STATUSES, { error: `item status must be one of ${V2_STATUSES.join(", ")}` }).optional(),
  cancelled: z.boolean().optional(),
  sellerInfo: z.object({ id: nonEmpty, name: str.optional() }).optional(),
  productData: productDataSchema.optional(),
});

export const orderV2Schema = z.object({
  ...common,
  version: z.literal(2),
  status: z.enum(V2_STATUSES, { error: `status must be one of ${V2_STATUSES.join(", ")}` }).optional(),
  authorizedDate: dateTime.optional(),
  modifiedDate: dateTime.optional(),
  items: z.array(orderItemV2Schema).optional(),
});

export const orderUpdateSchema = z.object({
  created: dateTime.optional(),
  status: z.enum(V1_STATUSES, { error: `status must be one of ${V1_STATUSES.join(", ")}` }).optional(),
  authorizedDate: dateTime.optional(),
  deliveredDate: dateField.optional(),
});

export type OrderV1Input = z.infer<typeof orderV1Schema>;
export type OrderV2Input = z.infer<typeof orderV2Schema>;

/** "Jane Mary Doe" → "Jane D."; one word stays as it is. */
export function abbreviateName(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length <= 1) return words[0] ?? "";
  return `${words[0]} ${words[words.length - 1][0].toUpperCase()}.`;
}

/** The SKU reviews are attached to: the product SKU (v1 `sku`, v2 `productId`). */
export function itemProductSku(item: { productId?: string; sku?: string }): string {
  return item.productId ?? item.sku ?? "";
}

/** Items a buyer can review: not cancelled, in an order that is not cancelled; one per product. */
export function reviewableItems(order: StoredOrder) {
  if (order.status === "cancelled") return [];
  const seen = new Set<string>();
  return order.items.filter((item) => {
    const sku = itemProductSku(item);
    if (item.cancelled || item.status === "cancelled" || seen.has(sku)) return false;
    seen.add(sku);
    return true;
  });
}

/** Response of a version 2 creation. */
export function orderRecord(o: StoredOrder) {
  return {
    _id: o._id,
    customer: o.customer,
    orderId: o.orderId,
    userId: o.userId,
    name: abbreviateName(o.name),
    createdDate: o.createdDate,
    authorizedDate: o.authorizedDate,
    email: o.email,
    phone: o.phone,
    status: o.status,
    optOutEmail: o.optOutEmail,
    optOutSMS: o.optOutSMS,
    optOutWhatsApp: o.optOutWhatsApp,
    __v: o.__v,
  };
}
