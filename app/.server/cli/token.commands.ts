import { defineCommand } from "./command";
import { withContext } from "./shop.commands";
import { migrateTokens, tokenMigrationDeps } from "../shopify";
import { createLogger } from "../logger";

// `npm run cli -- tokens migrate [--shop]`: the worker's migration of non-expiring offline tokens,
// run now, with a line per shop.

export const tokensMigrateCommand = defineCommand({
  name: "tokens migrate",
  summary: "Exchange non-expiring offline tokens for expiring ones now (all shops, or one).",
  usage: "[--shop <domain>]",
  options: { shop: { type: "string", description: "only this shop" } },
  async run(v, io) {
    return withContext(io, async (ctx) => {
      const log = createLogger({ name: "cli", level: ctx.config.LOG_LEVEL === "silent" ? "silent" : "warn" });
      const summary = await migrateTokens(tokenMigrationDeps(ctx.config, { db: ctx.db, log }), {
        shop: v.shop as string | undefined,
        onProgress: (done, total, shop, outcome) => (io.progress ?? io.out)(`[${done}/${total}] ${shop}: ${outcome}`),
      });
      if (summary.shops === 0) {
        io.out(
          v.shop
            ? `${String(v.shop)} holds no non-expiring token (already expiring, or not installed).`
            : "No shop holds a non-expiring token.",
        );
        return 0;
      }
      const o = summary.outcomes;
      io.out(
        `\nMigrated ${o.migrated}, already expiring ${o["already-expiring"]}, need the merchant ${o["needs-merchant"]}, failed ${o.failed} (of ${summary.shops}).`,
      );
      if (summary.waiting.length > 0)
        io.out(`Not asked (they wait for their merchant to open the app): ${summary.waiting.join(", ")}.`);
      for (const f of summary.failed)
        io.err(`  ${f.shop}: ${f.error} (run again: Shopify answers a repeated exchange with the same pair)`);
      return summary.failed.length > 0 ? 1 : 0;
    });
  },
});
