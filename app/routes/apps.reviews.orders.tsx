import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { appContext } from "../.server/context.server";
import { orderStatusDeps } from "../.server/storefront/orders/order-status-deps.server";
import { orderStatusPageResponse } from "../.server/storefront/orders/order-status.server";
import { plain, whenSigned } from "../.server/storefront/proxy/verify-proxy.server";

// App proxy: the logged-in customer's orders with their review status (HTML fragment for the
// account and order page block).
export const loader = ({ request }: LoaderFunctionArgs) =>
  orderStatusPageResponse(request, orderStatusDeps(appContext()));

export const action = ({ request }: ActionFunctionArgs) =>
  whenSigned(request, orderStatusDeps(appContext()).authenticate, () =>
    plain(405, "Method not allowed", { Allow: "GET" }),
  );
