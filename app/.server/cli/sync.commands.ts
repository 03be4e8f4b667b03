import { defineCommand } from "./command";
import { usageFrom, withContext } from "./shop.commands";
import { createProductMirror } from "../catalog/product-mirror.repository";

const shopOption = { shop: { type: "string", description: "shop domain, e.g. my-store.myshopify.com" } } as const;

export const syncErrorsCommand = defineCommand({
  name: "sync errors",
  summary: "List the products the service refused, with its reason.",
  usage: "--shop <domain> [--limit <n>] [--json]",
  options: { ...shopOption, limit: { type: "string", description: "rows to show (default 50)" }, json: { type: "boolean", description: "print JSON" } },
  required: ["shop"],
  async run(v, io) {
    return withContext(io, async (ctx) => {
      const shop = await ctx.shops.get(String(v.shop)).catch(usageFrom);
      const limit = Number(v.limit ?? 50);
      const { rows, total } = await createProductMirror(ctx.db).errors(shop.id, Number.isFinite(limit) && limit > 0 ? limit : 50);
      if (v.json) {
        io.out(JSON.stringify({ total, rows }, null, 2));
        return 0;
      }
      if (!total) {
        io.out(`No refused products for ${shop.domain}.`);
        return 0;
      }
      io.out(`${total} product(s) refused by the service${total > rows.length ? ` (showing ${rows.length})` : ""}:`);
      for (const r of rows) io.out(`  product ${r.productId}  sku ${r.sku}  ${r.errorAt?.toISOString() ?? ""}  ${r.error}`);
      return 0;
    });
  },
});
