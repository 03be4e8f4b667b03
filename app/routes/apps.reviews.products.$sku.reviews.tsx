import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { appContext } from "../.server/context.server";
import { proxyDeps } from "../.server/storefront/proxy/proxy-deps.server";
import { reviewsPageResponse } from "../.server/storefront/proxy/reviews-page.server";
import { plain, whenSigned } from "../.server/storefront/proxy/verify-proxy.server";

// App proxy: `<shop>/apps/reviews/products/<sku>/reviews?sort=…&page=…` → one page of reviews as
// an HTML fragment for the reviews block's script (signature, limits and cache inside).
export const loader = ({ request, params }: LoaderFunctionArgs) => reviewsPageResponse(request, params.sku ?? "", proxyDeps(appContext()));

// Read only; another method is answered once the signature passed, like every path here.
export const action = ({ request }: ActionFunctionArgs) => whenSigned(request, proxyDeps(appContext()).authenticate, () => plain(405, "Method not allowed", { Allow: "GET" }));
