import type { LoaderFunctionArgs } from "@remix-run/node";
import { authenticate } from "../shopify.server";
import { appContext } from "../.server/context.server";
import { keyFigures } from "../.server/admin";

// The home page's key figures, as JSON the page fetches after it shows (app/admin/ui/resource.ts):
// a slow or absent reviews service never holds the home page up, and the page's polling during a
// sync does not ask for them again.
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  return Response.json(await keyFigures(appContext(), session.shop));
};
