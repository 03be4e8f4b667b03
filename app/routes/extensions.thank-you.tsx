import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { appContext } from "../.server/context.server";
import { thankYouForExtension } from "../.server/storefront";
import { extensionReviewStatusDeps } from "../.server/web";

// Backend of the thank-you block: rate now, or when the buyer will be asked.
export const loader = ({ request }: LoaderFunctionArgs) =>
  thankYouForExtension(request, extensionReviewStatusDeps(appContext()));
export const action = ({ request }: ActionFunctionArgs) =>
  thankYouForExtension(request, extensionReviewStatusDeps(appContext()));
