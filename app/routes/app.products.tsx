import type { LoaderFunctionArgs } from "@remix-run/node";
import { authenticate } from "../shopify.server";
import { appContext } from "../.server/context.server";
import { shopProducts } from "../.server/admin";
import { productIdOf } from "../shared/product-ids";

// The shop's products as the app's mirror holds them (title, checked image, catalog key), as JSON:
// `?ids=<product id or gid>,…` for those products (the group form names what was picked), else the
// first 250 by key (what App Bridge's stand-in resource picker lists where no Shopify admin is).

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const raw = new URL(request.url).searchParams.get("ids");
  const productIds =
    raw === null
      ? undefined
      : raw
          .split(",")
          .flatMap((id) => productIdOf(id) ?? [])
          .slice(0, 250);
  return Response.json({ products: await shopProducts(appContext(), session.shop, productIds ? { productIds } : {}) });
};
