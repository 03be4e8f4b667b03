import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { appContext } from "../.server/context.server";
import { plain, whenSigned, voteResponse } from "../.server/storefront";
import { proxyDeps, reviewWriteDeps } from "../.server/web";

// App proxy: a shopper marks a review helpful or not helpful, once.
export const action = ({ request, params }: ActionFunctionArgs) =>
  request.method === "POST"
    ? voteResponse(request, params.sku ?? "", params.reviewId ?? "", reviewWriteDeps(appContext()))
    : whenSigned(request, proxyDeps(appContext()).authenticate, () =>
        plain(405, "Method not allowed", { Allow: "POST" }),
      );

export const loader = ({ request }: LoaderFunctionArgs) =>
  whenSigned(request, proxyDeps(appContext()).authenticate, () => plain(405, "Method not allowed", { Allow: "POST" }));
