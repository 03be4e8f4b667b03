import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { appContext } from "../.server/context.server";
import { orderReviewStatusForExtension } from "../.server/storefront";
import { extensionReviewStatusDeps } from "../.server/web";

// Backend of the customer account order status block: an order's review status for the customer
// of the session token. OPTIONS (the browser's preflight) is answered by the library's check.
export const loader = ({ request }: LoaderFunctionArgs) =>
  orderReviewStatusForExtension(request, extensionReviewStatusDeps(appContext()));
export const action = ({ request }: ActionFunctionArgs) =>
  orderReviewStatusForExtension(request, extensionReviewStatusDeps(appContext()));
