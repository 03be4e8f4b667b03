import {
  Banner,
  BlockStack,
  Card,
  EmptyState,
  Layout,
  SkeletonBodyText,
  SkeletonDisplayText,
  SkeletonPage,
  Text,
} from "@shopify/polaris";
import { Link, useRevalidator } from "@remix-run/react";
import type { ReactNode } from "react";
import { useI18n } from "../i18n/context";
import type { UiMessage } from "../../shared/messages";

// Loading, empty and error states, the same on every page.

/** What a page shows while the next page's data loads. */
export function PageSkeleton() {
  const { t } = useI18n();
  return (
    <SkeletonPage primaryAction>
      <span className="Polaris-Text--visuallyHidden" role="status">
        {t("common.loading")}
      </span>
      <Layout>
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <SkeletonDisplayText size="small" />
              <SkeletonBodyText lines={4} />
            </BlockStack>
          </Card>
        </Layout.Section>
      </Layout>
    </SkeletonPage>
  );
}

/** An error from the server in the merchant's words, with a retry that loads the data again. */
export function ErrorNotice({ error, onRetry, title }: { error: UiMessage; onRetry?: () => void; title?: string }) {
  const { t } = useI18n();
  const revalidator = useRevalidator();
  return (
    <Banner
      tone="critical"
      title={title ?? t("common.error.title")}
      action={{
        content: t("common.retry"),
        onAction: onRetry ?? (() => revalidator.revalidate()),
        loading: revalidator.state === "loading",
      }}
    >
      <p>{t(error.key, error.params)}</p>
    </Banner>
  );
}

export function Notice({
  tone,
  title,
  children,
}: {
  tone: "success" | "info" | "warning" | "critical";
  title?: string;
  children?: ReactNode;
}) {
  return (
    <Banner tone={tone} title={title}>
      {children}
    </Banner>
  );
}

// A plain illustration of a star, so an empty state requests nothing from outside the app.
const EMPTY_IMAGE =
  "data:image/svg+xml;utf8," +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" width="226" height="226" viewBox="0 0 226 226"><circle cx="113" cy="113" r="100" fill="#f1f1f1"/><path d="M113 55l17 38 41 4-31 28 9 41-36-21-36 21 9-41-31-28 41-4z" fill="#c9c9c9"/></svg>',
  );

export function Empty({
  heading,
  body,
  action,
}: {
  heading: string;
  body: string;
  action?: { content: string; url?: string; onAction?: () => void };
}) {
  return (
    <EmptyState heading={heading} image={EMPTY_IMAGE} action={action}>
      <Text as="p">{body}</Text>
    </EmptyState>
  );
}

/**
 * What every page over the service says before its content: the shop is not connected yet (with
 * the way to connect), or the service failed (with a retry).
 */
export function ServiceStatus({ connected, error }: { connected: boolean; error?: UiMessage | null }) {
  const { t } = useI18n();
  return (
    <>
      {!connected ? (
        <Notice tone="warning">
          {t("common.notConnected")} <Link to="/app">{t("common.connectLink")}</Link>
        </Notice>
      ) : null}
      {error ? <ErrorNotice error={error} /> : null}
    </>
  );
}
