import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { appContext } from "../.server/context.server";
import { orderReviewStatusPageResponse, plain, whenSigned } from "../.server/storefront";
import { orderReviewStatusDeps } from "../.server/web";

// App proxy: the logged-in customer's orders with their review status (HTML fragment for the
// account and order page block).
export const loader = ({ request }: LoaderFunctionArgs) =>
  orderReviewStatusPageResponse(request, orderReviewStatusDeps(appContext()));

export const action = ({ request }: ActionFunctionArgs) =>
  whenSigned(request, orderReviewStatusDeps(appContext()).authenticate, () =>
    plain(405, "Method not allowed", { Allow: "GET" }),
  );
