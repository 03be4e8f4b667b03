import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { appContext } from "../.server/context.server";
import { reviewsPageResponse, plain, whenSigned, submitReviewResponse } from "../.server/storefront";
import { proxyDeps, reviewWriteDeps } from "../.server/web";

// App proxy: `<shop>/apps/reviews/products/<sku>/reviews?sort=…&page=…` → one page of reviews as
// an HTML fragment for the reviews block's script (signature, limits and cache inside).
export const loader = ({ request, params }: LoaderFunctionArgs) =>
  reviewsPageResponse(request, params.sku ?? "", proxyDeps(appContext()));

// POST: a shopper's review (signature, replay, limits, identity from Shopify inside).
export const action = ({ request, params }: ActionFunctionArgs) =>
  request.method === "POST"
    ? submitReviewResponse(request, params.sku ?? "", reviewWriteDeps(appContext()))
    : whenSigned(request, proxyDeps(appContext()).authenticate, () =>
        plain(405, "Method not allowed", { Allow: "GET, POST" }),
      );
