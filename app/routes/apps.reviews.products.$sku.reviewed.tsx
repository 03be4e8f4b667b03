import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { appContext } from "../.server/context.server";
import { plain, whenSigned, reviewedResponse } from "../.server/storefront";
import { reviewWriteDeps } from "../.server/web";

// App proxy: whether the logged-in customer already reviewed this product (the reviews block's
// write button).
export const loader = ({ request, params }: LoaderFunctionArgs) =>
  reviewedResponse(request, params.sku ?? "", reviewWriteDeps(appContext()));

export const action = ({ request }: ActionFunctionArgs) =>
  whenSigned(request, reviewWriteDeps(appContext()).authenticate, () =>
    plain(405, "Method not allowed", { Allow: "GET" }),
  );
