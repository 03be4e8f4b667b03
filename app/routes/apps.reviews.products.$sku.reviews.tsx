import type { LoaderFunctionArgs } from "@remix-run/node";
import { appContext } from "../.server/context.server";
import { proxyDeps } from "../.server/storefront/proxy/proxy-deps.server";
import { reviewsPageResponse } from "../.server/storefront/proxy/reviews-page.server";

// App proxy: `<shop>/apps/reviews/products/<sku>/reviews?sort=…&page=…` → one page of reviews as
// an HTML fragment for the reviews block's script (signature, limits and cache inside).
export const loader = ({ request, params }: LoaderFunctionArgs) => reviewsPageResponse(request, params.sku ?? "", proxyDeps(appContext()));
