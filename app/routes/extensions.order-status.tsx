import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { appContext } from "../.server/context.server";
import { orderStatusForExtension } from "../.server/storefront/orders/extension-status.server";
import { extensionStatusDeps } from "../.server/storefront/orders/order-status-deps.server";

// Backend of the customer account order status block: an order's review status for the customer
// of the session token. OPTIONS (the browser's preflight) is answered by the library's check.
export const loader = ({ request }: LoaderFunctionArgs) =>
  orderStatusForExtension(request, extensionStatusDeps(appContext()));
export const action = ({ request }: ActionFunctionArgs) =>
  orderStatusForExtension(request, extensionStatusDeps(appContext()));
