import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { appContext } from "../.server/context.server";
import { plain, whenSigned } from "../.server/storefront/proxy/verify-proxy.server";
import { reviewedResponse } from "../.server/storefront/writes/reviewed.server";
import { reviewWriteDeps } from "../.server/storefront/writes/write-deps.server";

// App proxy: whether the logged-in customer already reviewed this product (the reviews block's
// write button).
export const loader = ({ request, params }: LoaderFunctionArgs) =>
  reviewedResponse(request, params.sku ?? "", reviewWriteDeps(appContext()));

export const action = ({ request }: ActionFunctionArgs) =>
  whenSigned(request, reviewWriteDeps(appContext()).authenticate, () =>
    plain(405, "Method not allowed", { Allow: "GET" }),
  );
