import { appBridgeStandIn } from "../.server/admin/app-bridge-stand-in";
import { localBridgeEnabled } from "../.server/admin/local-bridge";

// The App Bridge stand-in for `npm run dev:local` (no Shopify admin around the app). Anywhere else,
// and always in production, this address does not exist.
export const loader = async () => {
  if (!localBridgeEnabled()) return new Response("Not found", { status: 404 });
  return new Response(appBridgeStandIn(), {
    headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "no-store" },
  });
};
