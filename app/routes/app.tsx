import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { translator } from "../shared/i18n/translate";
import {
  Link,
  Outlet,
  useLoaderData,
  useLocation,
  useNavigation,
  useRouteError,
  type ShouldRevalidateFunction,
} from "@remix-run/react";
import { Banner } from "@shopify/polaris";
import { NavMenu } from "@shopify/app-bridge-react";
import polarisStyles from "@shopify/polaris/build/esm/styles.css?url";
import { authenticate } from "../shopify.server";
import { appBridgeUrl, shopifyDocumentHeaders } from "../.server/admin";
import { AdminProvider } from "../admin/ui/AdminProvider";
import { PageSkeleton } from "../admin/ui/feedback";
import { ShopifyResponse } from "../admin/ui/ShopifyResponse";
import { pickLocale } from "../shared/i18n/locale";
import { useI18n } from "../admin/i18n/context";
import { adminPages } from "../admin/pages";
import { appContext } from "../.server/context.server";
import { shopTokenStates } from "../.server/shopify";
import { forgetRefusedOfflineSession } from "../.server/shops";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: translator(data?.locale ?? "en")("app.name") },
];

export const links = () => [{ rel: "stylesheet", href: polarisStyles }];

export const loader = async ({ request }: LoaderFunctionArgs) => {
  let { session } = await authenticate.admin(request);
  const states = shopTokenStates(appContext().db);
  // Opening the app usually brings a fresh token pair (afterAuth clears the mark); while Shopify
  // still refuses the stored one, the merchant is told once, on every page.
  let tokenState = await states.get(session.shop);
  // A refused token the library would keep (a non-expiring one has no expiry to tell it): forget
  // it and authenticate again, which exchanges the merchant's session token for a fresh pair.
  if (await forgetRefusedOfflineSession(appContext().db, session.shop, tokenState)) {
    ({ session } = await authenticate.admin(request));
    tokenState = await states.get(session.shop);
  }
  return {
    tokenNeedsMerchant: tokenState?.state === "needs-merchant",
    // The API key is public (it is in every embedded app URL); the secret never leaves the server.
    apiKey: process.env.SHOPIFY_API_KEY || "",
    // Shopify opens the app with the merchant's admin language in `locale`.
    locale: pickLocale(new URL(request.url).searchParams.get("locale")),
    // root.tsx puts App Bridge's script first in the head.
    bridgeUrl: appBridgeUrl(),
  };
};

// The layout's data comes from the document load (Shopify's `locale` is in that URL only): client
// navigations and form posts keep it.
export const shouldRevalidate: ShouldRevalidateFunction = ({ nextUrl, defaultShouldRevalidate }) =>
  nextUrl.searchParams.has("locale") ? defaultShouldRevalidate : false;

function Navigation() {
  const { t } = useI18n();
  return (
    <NavMenu>
      <Link to="/app" rel="home">
        {t("app.name")}
      </Link>
      {adminPages.map((p) => (
        <Link key={p.path} to={p.path}>
          {t(p.label)}
        </Link>
      ))}
    </NavMenu>
  );
}

function TokenNotice() {
  const { t } = useI18n();
  return (
    <Banner tone="critical">
      <p>{t("app.tokenNeedsMerchant")}</p>
    </Banner>
  );
}

function Body() {
  const navigation = useNavigation();
  const location = useLocation();
  // Another page's data is on its way: show its shape rather than the old page.
  const switching = navigation.state === "loading" && navigation.location.pathname !== location.pathname;
  return <main>{switching ? <PageSkeleton /> : <Outlet />}</main>;
}

export default function App() {
  const { locale, tokenNeedsMerchant } = useLoaderData<typeof loader>();
  return (
    <AdminProvider locale={locale}>
      <Navigation />
      {tokenNeedsMerchant ? <TokenNotice /> : null}
      <Body />
    </AdminProvider>
  );
}

// Shopify needs Remix to catch some thrown responses so that their headers are included.
export function ErrorBoundary() {
  return <ShopifyResponse error={useRouteError()} />;
}

export const headers: HeadersFunction = (headersArgs) => shopifyDocumentHeaders(headersArgs);
