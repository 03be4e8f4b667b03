import { connectionInputSchema, ShopNotConnectedError } from "../shops";
import { forgetIfAnotherAccount, startFirstSyncs, verifyCredentials } from "../install";
import { confirmStep } from "./onboarding";
import { createResendLedger } from "../resend";
import { serviceErrorMessage } from "./service-errors";
import type { AppContext } from "../context.server";
import type { UiMessage } from "../../shared/messages";
import { serviceAddressAllowed, urlPolicy } from "../security";

// The home page's credentials form: checked with a token request before anything is saved; a bad
// field or a refused token saves nothing and says why. The client secret is write-only: an empty
// field keeps the stored one, and it is never sent back to the browser.

export const credentialFields = ["customerKey", "clientId", "clientSecret", "apiUrl", "authUrl", "rateUrl"] as const;
export type CredentialField = (typeof credentialFields)[number];

export type CredentialsResult =
  | { ok: true; message: UiMessage; warning?: UiMessage }
  | { ok: false; fieldErrors: Partial<Record<CredentialField, UiMessage>>; formError?: UiMessage };

const text = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === "string" ? v.trim() : "";
};

export async function saveCredentials(ctx: AppContext, domain: string, form: FormData): Promise<CredentialsResult> {
  const shop = await ctx.shops.ensure(domain);
  const before = await ctx.shops.status(shop.domain);
  let clientSecret = typeof form.get("clientSecret") === "string" ? String(form.get("clientSecret")) : "";
  if (!clientSecret && before.connected) {
    clientSecret = (
      await ctx.shops.account(shop.domain, { apiUrl: "", authUrl: "", rateUrl: "" }).catch((e) => {
        if (e instanceof ShopNotConnectedError) return { clientSecret: "" };
        throw e;
      })
    ).clientSecret;
  }
  const input = {
    domain: shop.domain,
    customerKey: text(form, "customerKey"),
    clientId: text(form, "clientId"),
    clientSecret,
    apiUrl: text(form, "apiUrl") || undefined,
    authUrl: text(form, "authUrl") || undefined,
    rateUrl: text(form, "rateUrl") || undefined,
  };
  const parsed = connectionInputSchema.safeParse(input);
  if (!parsed.success) {
    const fieldErrors: Partial<Record<CredentialField, UiMessage>> = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as CredentialField;
      if (fieldErrors[field]) continue;
      const given = (input as Record<string, unknown>)[field];
      if (field === "apiUrl" || field === "authUrl" || field === "rateUrl")
        fieldErrors[field] = { key: "creds.invalidUrl" };
      else if (field === "customerKey" && given) fieldErrors[field] = { key: "creds.invalidCustomer" };
      else fieldErrors[field] = { key: "creds.required" };
    }
    return { ok: false, fieldErrors, formError: { key: "creds.notSaved" } };
  }
  const c = parsed.data;
  // The server calls these with the account's secret: never an address inside the deployment's network.
  const inside = (["apiUrl", "authUrl", "rateUrl"] as const).filter(
    (f) => c[f] !== undefined && !serviceAddressAllowed(c[f]!, urlPolicy()),
  );
  if (inside.length)
    return {
      ok: false,
      fieldErrors: Object.fromEntries(inside.map((f) => [f, { key: "creds.invalidUrl" }])),
      formError: { key: "creds.notSaved" },
    };
  try {
    await verifyCredentials(
      {
        customer: c.customerKey,
        clientId: c.clientId,
        clientSecret: c.clientSecret,
        apiUrl: c.apiUrl ?? ctx.config.REVIEWS_API_URL,
        authUrl: c.authUrl ?? ctx.config.REVIEWS_AUTH_URL,
        rateUrl: c.rateUrl ?? ctx.config.REVIEWS_RATE_URL,
      },
      ctx.config.REVIEWS_TIMEOUT_MS,
    );
  } catch (error) {
    return { ok: false, fieldErrors: {}, formError: serviceErrorMessage(error) };
  }
  await ctx.shops.connect(c);
  const forgotten = await forgetIfAnotherAccount(
    ctx.db,
    shop.id,
    before,
    c,
    createResendLedger(ctx.queues.redis, ctx.config.REDIS_PREFIX),
  );
  await confirmStep(ctx, shop.domain, "credentials");
  ctx.log.info({ shop: shop.domain, customer: c.customerKey }, "shop connected from the admin");
  // Same account as before: its data is there already. A new one starts with everything.
  if (!forgotten) return { ok: true, message: { key: "creds.saved" } };
  const started = await startFirstSyncs({ db: ctx.db, queues: ctx.queues, config: ctx.config }, shop.id);
  if (started.catalog instanceof Error || started.orders instanceof Error) {
    return { ok: true, message: { key: "creds.saved" }, warning: { key: "creds.syncNotQueued" } };
  }
  return { ok: true, message: { key: "creds.connected" } };
}
