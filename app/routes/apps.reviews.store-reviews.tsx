import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { appContext } from "../.server/context.server";
import { plain, whenSigned, storeReviewsPageResponse } from "../.server/storefront";
import { proxyDeps } from "../.server/web";

// App proxy: a page of the store's published reviews (HTML fragment for the store reviews block).
export const loader = ({ request }: LoaderFunctionArgs) => storeReviewsPageResponse(request, proxyDeps(appContext()));

export const action = ({ request }: ActionFunctionArgs) =>
  whenSigned(request, proxyDeps(appContext()).authenticate, () => plain(405, "Method not allowed", { Allow: "GET" }));
