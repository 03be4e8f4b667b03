import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { appContext } from "../.server/context.server";
import { plain, whenSigned } from "../.server/storefront";
import { proxyDeps } from "../.server/web";

// Any other path under the app proxy: the signature is checked first (401), then there is nothing
// here (404), so an unsigned caller learns nothing about which paths exist.
const notFound = (request: Request) =>
  whenSigned(request, proxyDeps(appContext()).authenticate, () => plain(404, "Not found"));

export const loader = ({ request }: LoaderFunctionArgs) => notFound(request);
export const action = ({ request }: ActionFunctionArgs) => notFound(request);
