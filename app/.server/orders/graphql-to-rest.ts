import { legacyId, type ConsentState, consentState as policyState } from "../mapping";
import { lineRefSchema, type GraphqlAddress, type GraphqlFulfillment } from "./graphql-order.schemas";

// GraphQL values → the forms of the REST order payload (ids, times in the shop's offset, statuses,
// addresses), and the consent and line references GraphQL carries. Pure; graphql-order.adapter.ts
// puts them together.

/** GID or legacy id → the number REST payloads carry (a string when it would lose precision). */
export function restId(idOrGid: string | number): number | string {
  const legacy = legacyId(idOrGid);
  const n = Number(legacy);
  return /^\d+$/.test(legacy) && Number.isSafeInteger(n) ? n : legacy;
}

const OFFSET_RE = /^([+-])(\d{2}):?(\d{2})$/;

/** "+01:00", "-0800", "Z" → minutes east of UTC; undefined when not an offset. */
export function offsetMinutes(offset: string): number | undefined {
  if (offset.toUpperCase() === "Z") return 0;
  const m = OFFSET_RE.exec(offset);
  if (!m) return undefined;
  return (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}

/** The offset a REST timestamp is written in ("2026-11-10T08:01:09-08:00" → "-08:00"). */
export function utcOffsetOf(raw: string | null | undefined): string | undefined {
  const m = typeof raw === "string" ? /(Z|[+-]\d{2}:?\d{2})$/i.exec(raw.trim()) : null;
  if (!m || offsetMinutes(m[1]) === undefined) return undefined;
  const minutes = offsetMinutes(m[1])!;
  if (minutes === 0) return "+00:00";
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? "-" : "+"}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

/**
 * A GraphQL DateTime written as REST writes it: in the shop's offset when known
 * ("2026-11-14T23:32:10Z" with "-08:00" → "2026-11-14T15:32:10-08:00"), else unchanged.
 */
export function restTime(iso: string | null | undefined, utcOffset?: string): string | null {
  if (typeof iso !== "string" || !iso.trim()) return null;
  const minutes = utcOffset === undefined ? undefined : offsetMinutes(utcOffset);
  const ms = Date.parse(iso);
  if (minutes === undefined || Number.isNaN(ms)) return iso;
  const local = new Date(ms + minutes * 60_000).toISOString().replace(/\.\d{3}Z$/, "");
  return `${local}${utcOffsetOf(minutes === 0 ? "+00:00" : utcOffset)}`;
}

export const lower = (s: string | null | undefined): string | null =>
  typeof s === "string" && s.trim() ? s.trim().toLowerCase() : null;

/** OrderDisplayFulfillmentStatus → the REST order's fulfillment_status (null = unfulfilled). */
export function orderFulfillmentStatus(display: string | null | undefined): string | null {
  switch (lower(display)) {
    case "fulfilled":
      return "fulfilled";
    case "partially_fulfilled":
      return "partial";
    case "restocked":
      return "restocked";
    default:
      // UNFULFILLED, OPEN, IN_PROGRESS, ON_HOLD, SCHEDULED, PENDING_FULFILLMENT, REQUEST_DECLINED.
      return null;
  }
}

// FulfillmentDisplayStatus values that are REST shipment_status values (lowercased); the others
// (FULFILLED, MARKED_AS_FULFILLED, SUBMITTED, CANCELED, LABEL_VOIDED, NOT_DELIVERED) say nothing of
// the parcel and are null in REST.
const SHIPMENT_STATUSES = new Set([
  "label_printed",
  "label_purchased",
  "attempted_delivery",
  "ready_for_pickup",
  "picked_up",
  "confirmed",
  "in_transit",
  "out_for_delivery",
  "delivered",
  "failure",
  "carrier_picked_up",
  "delayed",
]);

export function shipmentStatus(f: GraphqlFulfillment): string | null {
  const display = lower(f.displayStatus);
  if (display && SHIPMENT_STATUSES.has(display)) return display;
  if (display) return null;
  // No display status selected: the tracking timestamps still tell.
  if (f.deliveredAt) return "delivered";
  if (f.inTransitAt) return "in_transit";
  return null;
}

export function consentState(...candidates: (string | null | undefined)[]): ConsentState | undefined {
  for (const c of candidates) {
    const s = policyState(c);
    if (s) return s;
  }
  return undefined;
}

export function consentTime(iso: string | null | undefined): Date | null {
  const ms = typeof iso === "string" ? Date.parse(iso) : NaN;
  return Number.isNaN(ms) ? null : new Date(ms);
}

/** `{ nodes: [...] }`, `{ edges: [{ node }] }` or a plain array → the items. */
export function connectionItems(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (value && typeof value === "object") {
    const v = value as { nodes?: unknown; edges?: unknown };
    if (Array.isArray(v.nodes)) return v.nodes;
    if (Array.isArray(v.edges))
      return v.edges.map((e) => (e && typeof e === "object" ? (e as { node?: unknown }).node : undefined));
  }
  return [];
}

export function lineRefs(value: unknown): { id: number | string; quantity: number | null }[] | undefined {
  if (value === undefined) return undefined;
  return connectionItems(value).flatMap((item) => {
    const parsed = lineRefSchema.safeParse(item);
    return parsed.success && parsed.data.lineItem
      ? [{ id: restId(parsed.data.lineItem.id), quantity: parsed.data.quantity ?? null }]
      : [];
  });
}

export function address(a: GraphqlAddress) {
  if (!a) return null;
  return {
    first_name: a.firstName ?? null,
    last_name: a.lastName ?? null,
    name: a.name ?? null,
    phone: a.phone ?? null,
    country_code: a.countryCodeV2 ?? a.countryCode ?? null,
  };
}
