import { useEffect, type AnchorHTMLAttributes, type ReactNode } from "react";
import { Link, useNavigate } from "@remix-run/react";
import { AppProvider as PolarisProvider } from "@shopify/polaris";
import polarisEn from "@shopify/polaris/locales/en.json";
import polarisEs from "@shopify/polaris/locales/es.json";
import polarisPtBR from "@shopify/polaris/locales/pt-BR.json";
import { I18nProvider } from "../i18n/context";
import type { Locale } from "../../shared/i18n/locale";

// What @shopify/shopify-app-remix's AppProvider does (Polaris with Remix links, App Bridge's
// navigate events), with differences: Polaris speaks the merchant's language, and App Bridge's
// script is not here but first in the document's head (root.tsx), where it blocks nothing behind
// the stylesheets; it can be the local stand-in that `npm run dev:local` serves (never in
// production: the layout loader decides). Pages use the components in this folder rather than
// Polaris directly where a later move to Polaris web components would touch them.

export const APP_BRIDGE_URL = "https://cdn.shopify.com/shopifycloud/app-bridge.js";
const polarisI18n = { en: polarisEn, "pt-BR": polarisPtBR, es: polarisEs } as const;

type LinkProps = { url: string; children?: ReactNode; external?: boolean } & Omit<
  AnchorHTMLAttributes<HTMLAnchorElement>,
  "href"
>;

function RemixLink({ url, children, external, ...rest }: LinkProps) {
  if (external || /^https?:\/\//.test(url)) {
    return (
      <a href={url} target="_blank" rel="noopener noreferrer" {...rest}>
        {children}
      </a>
    );
  }
  return (
    <Link to={url} {...rest}>
      {children}
    </Link>
  );
}

export function AdminProvider(props: { locale: Locale; children: ReactNode }) {
  const navigate = useNavigate();
  useEffect(() => {
    const onNavigate = (event: Event) => {
      const href = (event.target as Element | null)?.getAttribute?.("href");
      if (href) navigate(href);
    };
    addEventListener("shopify:navigate", onNavigate);
    return () => removeEventListener("shopify:navigate", onNavigate);
  }, [navigate]);
  return (
    <PolarisProvider i18n={polarisI18n[props.locale]} linkComponent={RemixLink}>
      <I18nProvider locale={props.locale}>{props.children}</I18nProvider>
    </PolarisProvider>
  );
}
