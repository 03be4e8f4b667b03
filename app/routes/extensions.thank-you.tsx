import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { appContext } from "../.server/context.server";
import { thankYouForExtension } from "../.server/storefront/orders/extension-status.server";
import { extensionStatusDeps } from "../.server/storefront/orders/order-status-deps.server";

// Backend of the thank-you block: rate now, or when the buyer will be asked.
export const loader = ({ request }: LoaderFunctionArgs) =>
  thankYouForExtension(request, extensionStatusDeps(appContext()));
export const action = ({ request }: ActionFunctionArgs) =>
  thankYouForExtension(request, extensionStatusDeps(appContext()));
