import type { AppContext } from "../../app/.server/context.server";

/**
 * Connects the shop to an emulator account (`<customer>-client` / `<customer>-secret-…`) with its storefront domain.
 */
export async function connectToEmulator(web: AppContext, shop: string, customer: string) {
  const row = await web.shops.connect({
    domain: shop,
    customerKey: customer,
    clientId: `${customer}-client`,
    clientSecret: `${customer}-secret-0123456789`,
  });
  await web.shops.setPrimaryDomain(shop, `https://${shop.split(".")[0]}.example.com`);
  return row;
}
