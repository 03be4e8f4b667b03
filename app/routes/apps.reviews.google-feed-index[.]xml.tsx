import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { appContext } from "../.server/context.server";
import { googleFeedIndexResponse } from "../.server/google";
import { plain, whenSigned } from "../.server/storefront";
import { googleFeedDeps } from "../.server/web";

// App proxy: the parts of the shop's Google product ratings feed (docs/google-feed.md).
export const loader = ({ request }: LoaderFunctionArgs) =>
  googleFeedIndexResponse(request, googleFeedDeps(appContext()));

export const action = ({ request }: ActionFunctionArgs) =>
  whenSigned(request, googleFeedDeps(appContext()).authenticate, () =>
    plain(405, "Method not allowed", { Allow: "GET, HEAD" }),
  );
