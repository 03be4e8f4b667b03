import "@shopify/shopify-api/adapters/web-api";
import { shopifyApi, type ApiVersion } from "@shopify/shopify-api";
import type { Logger } from "pino";
import { z } from "zod";
import type { Db } from "../db";
import { SHOPIFY_API_VERSION } from "../shopify";
import { createFlowTriggerUse, type UseRecorded } from "../flow";

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

type FlowValidate = ReturnType<typeof shopifyApi>["flow"]["validate"];
const validators = new Map<string, FlowValidate>();

function flowValidator(opts: { apiKey: string; apiSecretKey: string; appUrl: string }): FlowValidate {
  const key = JSON.stringify(opts);
  let validate = validators.get(key);
  if (!validate) {
    const api = shopifyApi({
      apiKey: opts.apiKey,
      apiSecretKey: opts.apiSecretKey,
      apiVersion: SHOPIFY_API_VERSION as ApiVersion,
      hostName: new URL(opts.appUrl).host,
      isEmbeddedApp: true,
      logger: { level: 0, log: () => undefined },
    });
    validate = api.flow.validate.bind(api.flow);
    validators.set(key, validate);
  }
  return validate;
}

/** The HTTP side: 405 for a non-POST, 401 for a bad signature, 400 for an unreadable body, else 200. */
export async function answerLifecycleCallback(
  request: Request,
  deps: {
    db: Db;
    log: Logger;
    shopIdOf: (domain: string) => Promise<string | null>;
    app: { apiKey: string; apiSecretKey: string; appUrl: string };
  },
): Promise<Response> {
  if (request.method !== "POST") return new Response(null, { status: 405 });
  const rawBody = await request.text();
  const check = await flowValidator(deps.app)({ rawBody, rawRequest: request });
  if (!check.valid) {
    // An unsigned or wrongly signed callback is unauthenticated; only an empty body is malformed.
    return new Response(null, { status: check.reason === "missing_body" ? 400 : 401 });
  }
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
