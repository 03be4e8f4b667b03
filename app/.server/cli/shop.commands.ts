import { z } from "zod";
import { createAddressRefusals, describeTokenStatus, offlineTokenStatus } from "../shopify";
import { defineCommand, UsageError, type CliIo } from "./command";
import { createCliContext, type CliContext } from "./cli-context";
import { ShopNotFoundError } from "../shops";
import { forgetIfAnotherAccount, startFirstSyncs } from "../install";
import { createResendLedger, reportAccountSwitch } from "../resend";

export async function withContext<T>(io: CliIo, fn: (ctx: CliContext) => Promise<T>): Promise<T> {
  const ctx = createCliContext(io.env);
  try {
    return await fn(ctx);
  } finally {
    await ctx.close();
  }
}

/** Turns a zod failure into the one line an operator needs. */
export function usageFrom(error: unknown): never {
  if (error instanceof ShopNotFoundError)
    throw new UsageError(
      `No shop ${error.domain}. Connect it first: npm run cli -- connect --shop ${error.domain} ...`,
    );
  if (error instanceof z.ZodError) {
    const issue = error.issues[0];
    throw new UsageError(`${issue.path.join(".") || "input"}: ${issue.message}`);
  }
  throw error;
}

const shopOption = { shop: { type: "string", description: "shop domain, e.g. my-store.myshopify.com" } } as const;

export const connectCommand = defineCommand({
  name: "connect",
  summary: "Store the shop's connection to the reviews service (the client secret is encrypted).",
  usage: "--shop <domain> --customer <key> --client-id <id> --client-secret <secret>",
  options: {
    ...shopOption,
    customer: { type: "string", description: "customer key of the account" },
    "client-id": { type: "string", description: "client ID (dashboard: Settings > Integrations > API)" },
    "client-secret": { type: "string", description: "client secret (stored encrypted, never printed)" },
    "api-url": { type: "string", description: "override of REVIEWS_API_URL for this shop" },
    "auth-url": { type: "string", description: "override of REVIEWS_AUTH_URL for this shop" },
    "rate-url": { type: "string", description: "override of REVIEWS_RATE_URL for this shop" },
    "no-sync": { type: "boolean", description: "do not start the first full catalog sync" },
  },
  required: ["shop", "customer", "client-id", "client-secret"],
  async run(v, io) {
    return withContext(io, async (ctx) => {
      // What it was connected to before (a bad domain is reported by connect, in its words).
      const previous = await ctx.shops.find(String(v.shop)).catch(() => null);
      await ctx.shops
        .connect({
          domain: String(v.shop),
          customerKey: String(v.customer),
          clientId: String(v["client-id"]),
          clientSecret: String(v["client-secret"]),
          apiUrl: v["api-url"] as string | undefined,
          authUrl: v["auth-url"] as string | undefined,
          rateUrl: v["rate-url"] as string | undefined,
        })
        .catch(usageFrom);
      const status = await ctx.shops.status(String(v.shop));
      io.out(`Connected ${status.domain} to customer ${status.customerKey} (client secret ${status.clientSecret}).`);
      const shop = await ctx.shops.get(status.domain);
      const before = {
        connected: Boolean(previous?.customerKey && previous.clientId),
        customerKey: previous?.customerKey ?? null,
        apiUrl: previous?.apiUrl,
      };
      const forgotten = await forgetIfAnotherAccount(ctx.db, shop.id, before, status);
      if (forgotten && forgotten.products + forgotten.orders > 0) {
        // Only now is Redis needed: the Sync page's note (the resend itself is in the database).
        const queues = ctx.queues();
        await queues
          .ready(5000)
          .then(() =>
            reportAccountSwitch(createResendLedger(queues.redis, ctx.config.REDIS_PREFIX), shop.id, forgotten),
          )
          .catch((e: Error) => io.err(`Warning: the Sync page will not show the switch (${e.message}).`));
        io.out(
          `Another account than before: the ${forgotten.products} products and ${forgotten.orders} orders sent to the previous one will be sent again.`,
        );
      }
      if (v["no-sync"]) return 0;
      const {
        catalog: started,
        orders: backfill,
        ratings,
      } = await startFirstSyncs({ db: ctx.db, queues: ctx.queues(), config: ctx.config }, shop.id);
      if (started instanceof Error)
        io.err(
          `Warning: the first catalog sync could not be queued (${started.message}); run \`npm run cli -- sync catalog --shop ${status.domain}\` later.`,
        );
      else
        io.out(
          `Full catalog sync queued (run ${started.run.id}); watch it with: npm run cli -- sync catalog --shop ${status.domain}`,
        );
      if (backfill instanceof Error)
        io.err(
          `Warning: the orders backfill could not be queued (${backfill.message}); run \`npm run cli -- sync orders --shop ${status.domain}\` later.`,
        );
      else
        io.out(
          `Orders backfill queued (run ${backfill.run.id}): recent orders go to the service once the catalog is in.`,
        );
      if (ratings instanceof Error)
        io.err(
          `Warning: the ratings back-sync could not be queued (${ratings.message}); the worker's scheduler runs it later.`,
        );
      else io.out("Ratings back-sync queued: products with reviews get their rating metafields.");
      return 0;
    });
  },
});

export const statusCommand = defineCommand({
  name: "status",
  summary: "Show a shop's connection, install state and settings (secrets masked).",
  usage: "--shop <domain> [--json]",
  options: { ...shopOption, json: { type: "boolean", description: "print JSON" } },
  required: ["shop"],
  async run(v, io) {
    return withContext(io, async (ctx) => {
      const shop = await ctx.shops.find(String(v.shop)).catch(usageFrom);
      if (!shop) {
        io.err(`No shop ${v.shop}. Connect it first: npm run cli -- connect --shop ${v.shop} ...`);
        return 1;
      }
      const s = await ctx.shops.status(shop.domain);
      const token = await offlineTokenStatus(ctx.db, shop.domain);
      const queues = ctx.queues();
      // Kept in Redis: without it, status still answers, saying it could not tell.
      const refused = await queues
        .ready(2000)
        .then(() => createAddressRefusals(queues.redis, queues.prefix).get(shop.domain))
        .catch(() => undefined);
      const adminApi =
        refused === undefined
          ? { state: "unknown" as const }
          : refused
            ? {
                state: "address-refused" as const,
                since: refused.since.toISOString(),
                probes: refused.probes,
                nextProbeAt: refused.nextProbeAt?.toISOString() ?? null,
                detail: refused.detail,
              }
            : { state: "ok" as const };
      if (v.json) {
        io.out(JSON.stringify({ ...s, adminApi, shopifyToken: token }, null, 2));
        return 0;
      }
      io.out(`Shop:           ${s.domain} (${s.installState})`);
      io.out(`Shopify token:  ${describeTokenStatus(token)}`);
      io.out(`Connected:      ${s.connected ? `yes, since ${s.connectedAt?.toISOString()}` : "no"}`);
      io.out(`Customer key:   ${s.customerKey ?? "-"}`);
      io.out(`Client id:      ${s.clientId ?? "-"}`);
      io.out(`Client secret:  ${s.clientSecret}`);
      io.out(
        `Service URLs:   api ${s.apiUrl ?? ctx.config.REVIEWS_API_URL}, auth ${s.authUrl ?? ctx.config.REVIEWS_AUTH_URL}, rate ${s.rateUrl ?? ctx.config.REVIEWS_RATE_URL}`,
      );
      io.out(`Primary domain: ${s.primaryDomain ?? "(not read yet)"}`);
      io.out(`Settings:       ${JSON.stringify(s.settings)}`);
      if (refused) {
        io.out(
          `Admin API:      Shopify refused this server's address: add it to the app's IP allowlist (since ${refused.since.toISOString()}; work paused, ${refused.probes} probe(s) refused, next ${refused.nextProbeAt?.toISOString() ?? "not scheduled"})`,
        );
        io.out(`                Shopify said: ${refused.detail}`);
      } else {
        io.out(`Admin API:      ${refused === undefined ? "unknown (Redis did not answer)" : "no refusal recorded"}`);
      }
      return 0;
    });
  },
});

export const disconnectCommand = defineCommand({
  name: "disconnect",
  summary: "Forget the shop's credentials for the reviews service (its sync stops).",
  usage: "--shop <domain>",
  options: { ...shopOption },
  required: ["shop"],
  async run(v, io) {
    return withContext(io, async (ctx) => {
      const shop = await ctx.shops.find(String(v.shop)).catch(usageFrom);
      if (!shop) {
        io.err(`No shop ${v.shop}.`);
        return 1;
      }
      await ctx.shops.disconnect(shop.domain);
      io.out(`Disconnected ${shop.domain}.`);
      return 0;
    });
  },
});

export const complianceCommand = defineCommand({
  name: "compliance",
  summary: "Show the compliance requests received for a shop (data requests carry the record to hand over).",
  usage: "--shop <domain>",
  options: { ...shopOption },
  required: ["shop"],
  async run(v, io) {
    return withContext(io, async (ctx) => {
      const domain = String(v.shop).trim().toLowerCase();
      const rows = await ctx.db.complianceRequest.findMany({
        where: { shopDomain: domain },
        orderBy: { createdAt: "asc" },
      });
      if (!rows.length) io.out(`No compliance requests for ${domain}.`);
      for (const r of rows)
        io.out(
          JSON.stringify(
            { at: r.createdAt.toISOString(), topic: r.topic, customerId: r.customerId, record: JSON.parse(r.record) },
            null,
            2,
          ),
        );
      return 0;
    });
  },
});
