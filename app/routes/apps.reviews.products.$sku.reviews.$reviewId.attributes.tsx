import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { appContext } from "../.server/context.server";
import { plain, whenSigned, sendAttributesResponse } from "../.server/storefront";
import { proxyDeps, reviewWriteDeps } from "../.server/web";

// App proxy: the author of a review just written answers its attribute questions.
export const action = ({ request, params }: ActionFunctionArgs) =>
  request.method === "POST"
    ? sendAttributesResponse(request, params.sku ?? "", params.reviewId ?? "", reviewWriteDeps(appContext()))
    : whenSigned(request, proxyDeps(appContext()).authenticate, () =>
        plain(405, "Method not allowed", { Allow: "POST" }),
      );

export const loader = ({ request }: LoaderFunctionArgs) =>
  whenSigned(request, proxyDeps(appContext()).authenticate, () => plain(405, "Method not allowed", { Allow: "POST" }));
