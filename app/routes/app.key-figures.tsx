import type { LoaderFunctionArgs } from "@remix-run/node";
import { authenticate } from "../shopify.server";
import { appContext } from "../.server/context.server";
import { keyFigures } from "../.server/admin/key-figures";

// The home page's key figures, loaded by the page after it shows: a slow or absent reviews service
// never holds the home page up, and the page's polling during a sync does not ask for them again.
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  return keyFigures(appContext(), session.shop);
};

// The page reloads them itself (HomeFigures' `version`); the home page's polling during a sync, and
// its form posts, would otherwise ask the service again each time.
export const shouldRevalidate = () => false;
