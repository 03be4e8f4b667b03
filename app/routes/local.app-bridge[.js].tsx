import { localBridgeScript } from "../.server/admin";

// The App Bridge stand-in for `npm run dev:local` (no Shopify admin around the app). Anywhere else,
// and always in production, this address does not exist.
export const loader = async () => {
  const script = await localBridgeScript();
  if (script === null) return new Response("Not found", { status: 404 });
  return new Response(script, {
    headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "no-store" },
  });
};
