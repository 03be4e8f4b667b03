import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { appContext } from "../.server/context.server";
import { orderReviewStatusForExtension } from "../.server/storefront";
import { extensionReviewStatusDeps, type ExtensionChecks } from "../.server/web";
import { authenticate } from "../shopify.server";

// Backend of the customer account order status block: an order's review status for the customer
// of the session token. OPTIONS (the browser's preflight) is answered by the library's check.

// The app's one library instance checks the session tokens (no session is read for them).
const checks: ExtensionChecks = {
  customerAccount: (request) => authenticate.public.customerAccount(request),
  checkout: (request) => authenticate.public.checkout(request),
};
export const loader = ({ request }: LoaderFunctionArgs) =>
  orderReviewStatusForExtension(request, extensionReviewStatusDeps(appContext(), checks));
export const action = ({ request }: ActionFunctionArgs) =>
  orderReviewStatusForExtension(request, extensionReviewStatusDeps(appContext(), checks));
