import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useRouteLoaderData,
  type ShouldRevalidateFunction,
} from "@remix-run/react";
import { localBridgeEnabled } from "./.server/admin";

// Shopify's CDN holds the admin's font. Where the App Bridge stand-in is in use (no Shopify around
// the app, `npm run dev:local`), nothing may come from that CDN: the page keeps Polaris' fallback
// system fonts rather than waiting on a host it cannot reach.
export const loader = () => ({ shopifyCdn: !localBridgeEnabled() });

// Whether the stand-in is in use does not change while the app runs.
export const shouldRevalidate: ShouldRevalidateFunction = () => false;

export default function App() {
  const { shopifyCdn } = useLoaderData<typeof loader>();
  // The embedded admin's language (routes/app.tsx reads Shopify's `locale`); English elsewhere.
  const admin = useRouteLoaderData<{ locale?: string; bridgeUrl?: string; apiKey?: string }>("routes/app");
  return (
    <html lang={admin?.locale ?? "en"}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        {/* App Bridge first in the head, as Shopify asks, and before any stylesheet: a plain script
            after a stylesheet waits for that stylesheet, and the page below it (the moderation
            queue's rows) would wait with it, behind Polaris' 430 KB of CSS. */}
        {admin?.bridgeUrl ? <script src={admin.bridgeUrl} data-api-key={admin.apiKey} /> : null}
        {shopifyCdn ? (
          <>
            <link rel="preconnect" href="https://cdn.shopify.com/" />
            <link rel="stylesheet" href="https://cdn.shopify.com/static/fonts/inter/v4/styles.css" />
          </>
        ) : null}
        <Meta />
        <Links />
      </head>
      <body>
        <Outlet />
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}
