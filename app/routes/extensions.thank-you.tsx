import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { appContext } from "../.server/context.server";
import { thankYouForExtension } from "../.server/storefront";
import { extensionReviewStatusDeps, type ExtensionChecks } from "../.server/web";
import { authenticate } from "../shopify.server";

// Backend of the thank-you block: rate now, or when the buyer will be asked.

// The app's one library instance checks the session tokens (no session is read for them).
const checks: ExtensionChecks = {
  customerAccount: (request) => authenticate.public.customerAccount(request),
  checkout: (request) => authenticate.public.checkout(request),
};
export const loader = ({ request }: LoaderFunctionArgs) =>
  thankYouForExtension(request, extensionReviewStatusDeps(appContext(), checks));
export const action = ({ request }: ActionFunctionArgs) =>
  thankYouForExtension(request, extensionReviewStatusDeps(appContext(), checks));
