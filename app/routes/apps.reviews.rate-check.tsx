import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { appContext } from "../.server/context.server";
import { plain, whenSigned, rateCheckResponse } from "../.server/storefront";
import { orderReviewStatusDeps } from "../.server/web";

// App proxy: what the rating modal asks before it opens (the order's name, its products' titles
// and images from Shopify, which the buyer reviewed already).
export const loader = ({ request }: LoaderFunctionArgs) =>
  rateCheckResponse(request, orderReviewStatusDeps(appContext()));

export const action = ({ request }: ActionFunctionArgs) =>
  whenSigned(request, orderReviewStatusDeps(appContext()).authenticate, () =>
    plain(405, "Method not allowed", { Allow: "GET" }),
  );
