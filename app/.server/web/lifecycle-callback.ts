import { createSecretKey, type KeyObject } from "node:crypto";
import type { Logger } from "pino";
import { z } from "zod";
import type { Db } from "../db";
import { createFlowTriggerUse, type UseRecorded } from "../flow";
import { bodySignedBy } from "../webhooks";

// Shopify Flow's trigger lifecycle callback (extension extensions/flow-lifecycle): Flow posts it
// when a merchant turns on or off a workflow that starts with one of our triggers, signed like a
// webhook (X-Shopify-Hmac-Sha256 over the raw body with the app's secret). Flow lets the merchant
// turn the workflow on only after a 2xx, so every signed, readable callback is answered 200, even
// one for a shop or a trigger this app does not know: refusing it would only block the merchant.

export const lifecycleCallbackSchema = z.object({
  flow_trigger_definition_id: z.string().min(1),
  has_enabled_flow: z.boolean(),
  shopify_domain: z.string().regex(/^[a-z0-9][a-z0-9-]*\.myshopify\.com$/),
  shop_id: z.union([z.number(), z.string()]).optional(),
  timestamp: z.string().optional(),
});
export type LifecycleCallback = z.infer<typeof lifecycleCallbackSchema>;

/**
 * Our triggers by what the callback may call them. Flow's page describes the id as the trigger's
 * identifier and shows a trigger's title as its example, so both the handle and the title count.
 */
export const TRIGGER_NAMES: Record<string, string> = {
  "review-collected": "review-collected",
  "Review collected": "review-collected",
  "review-published": "review-published",
  "Review published": "review-published",
  "negative-review-received": "negative-review-received",
  "Negative review received": "negative-review-received",
};

export type LifecycleOutcome =
  | { kind: "recorded" | "older than stored"; handle: string; inUse: boolean }
  | { kind: "unknown shop" }
  | { kind: "unknown trigger" };

/** Pure: the callback's time, or `now` when it sent none a date can be read from. */
export function callbackTime(callback: Pick<LifecycleCallback, "timestamp">, now: Date): Date {
  const ms = callback.timestamp ? Date.parse(callback.timestamp) : NaN;
  return Number.isNaN(ms) ? now : new Date(ms);
}

export async function recordLifecycleCallback(
  deps: { db: Db; shopIdOf: (domain: string) => Promise<string | null>; now?: () => Date },
  callback: LifecycleCallback,
): Promise<LifecycleOutcome> {
  const handle = TRIGGER_NAMES[callback.flow_trigger_definition_id];
  if (!handle) return { kind: "unknown trigger" };
  const shopId = await deps.shopIdOf(callback.shopify_domain);
  if (!shopId) return { kind: "unknown shop" };
  const use = {
    inUse: callback.has_enabled_flow,
    changedAt: callbackTime(callback, deps.now?.() ?? new Date()),
  };
  const kind: UseRecorded = await createFlowTriggerUse(deps.db).record(shopId, handle, use);
  return { kind, handle, inUse: use.inUse };
}

const keys = new Map<string, KeyObject>();

/**
 * The library's `flow.validate`, done here rather than by a library instance of its own: an empty
 * body is malformed (400); a missing header or a signature that is not the body's HMAC is
 * unauthenticated (401). The body is signed as the library reads it, the text's UTF-8 bytes
 * (lifecycle-callback.test.ts holds the two side by side). The app's one instance's
 * `authenticate.flow` answers 400 to both, and loads the shop's offline session, which Flow's
 * callback for a shop we do not know must not need.
 */
export function flowCallbackStatus(rawBody: string, signature: string | null, apiSecretKey: string): 200 | 400 | 401 {
  if (!rawBody.length) return 400;
  if (!signature) return 401;
  let key = keys.get(apiSecretKey);
  if (!key) keys.set(apiSecretKey, (key = createSecretKey(Buffer.from(apiSecretKey, "utf8"))));
  return bodySignedBy(key, Buffer.from(rawBody, "utf8"), signature) ? 200 : 401;
}

/** The HTTP side: 405 for a non-POST, 401 for a bad signature, 400 for an unreadable body, else 200. */
export async function answerLifecycleCallback(
  request: Request,
  deps: {
    db: Db;
    log: Logger;
    shopIdOf: (domain: string) => Promise<string | null>;
    app: { apiSecretKey: string };
  },
): Promise<Response> {
  if (request.method !== "POST") return new Response(null, { status: 405 });
  const rawBody = await request.text();
  const signed = flowCallbackStatus(rawBody, request.headers.get("x-shopify-hmac-sha256"), deps.app.apiSecretKey);
  // An unsigned or wrongly signed callback is unauthenticated; only an empty body is malformed.
  if (signed !== 200) return new Response(null, { status: signed });
  let parsed: ReturnType<typeof lifecycleCallbackSchema.safeParse>;
  try {
    parsed = lifecycleCallbackSchema.safeParse(JSON.parse(rawBody));
  } catch {
    return new Response(null, { status: 400 });
  }
  if (!parsed.success) return new Response(null, { status: 400 });
  const outcome = await recordLifecycleCallback(deps, parsed.data);
  const shop = parsed.data.shopify_domain;
  if (outcome.kind === "unknown trigger")
    deps.log.warn({ shop, trigger: parsed.data.flow_trigger_definition_id }, "Flow named a trigger we do not declare");
  else deps.log.info({ shop, ...outcome }, "Flow trigger use");
  return new Response(null, { status: 200 });
}
