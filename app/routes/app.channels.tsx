import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useNavigate, useNavigation } from "@remix-run/react";
import { BlockStack, Button, Link, Text, TextField } from "@shopify/polaris";
import { useAppBridge } from "@shopify/app-bridge-react";
import { authenticate } from "../shopify.server";
import { appContext } from "../.server/context.server";
import { channelsPage } from "../.server/admin";
import { ShopAppSection } from "../admin/shop-app-section";
import { AdminPage, Section, StatusBadge } from "../admin/ui/page";
import { Notice } from "../admin/ui/feedback";
import { ResourceTable } from "../admin/ui/table";
import { useI18n } from "../admin/i18n/context";
import { EXCLUSION_REASON_KEYS } from "../admin/google-feed-reasons";
import { needsKey, sharedTitles } from "../admin/product-titles";

// Where the store's reviews go beyond its own pages: Google Shopping (the product ratings feed)
// and the Shop app.

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  return channelsPage(appContext(), session.shop, new URL(request.url).searchParams);
};

type Google = ReturnType<typeof useLoaderData<typeof loader>>["google"];

// A definition list may hold only <div>s around its <dt>/<dd> pairs: a grid of its own, not Polaris' stacks.
const FIGURES_CSS = `
.channels-figures { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: var(--p-space-400); margin: 0; }
.channels-figures dd { margin: 0; }
@media (min-width: 48em) { .channels-figures { grid-template-columns: repeat(4, minmax(0, 1fr)); } }
`;

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text as="dt" variant="bodySm" tone="subdued">
        {label}
      </Text>
      <Text as="dd" variant="headingMd">
        {value}
      </Text>
    </div>
  );
}

function FeedHealth({ google }: { google: Google }) {
  const { t, date } = useI18n();
  const { feed, minimum } = google;
  if (google.health === "none" || !feed) return <Notice tone="info">{t("channels.google.none")}</Notice>;
  if (google.health === "belowMinimum")
    return <Notice tone="warning">{t("channels.google.belowMinimum", { minimum, count: feed.included })}</Notice>;
  if (google.health === "stale")
    return (
      <Notice tone="warning">{t("channels.google.stale", { date: date(feed.fetchedAt ?? feed.builtAt ?? "") })}</Notice>
    );
  return <Notice tone="success">{t("channels.google.ok", { minimum })}</Notice>;
}

function GoogleSection({ google }: { google: Google }) {
  const { t, number, date } = useI18n();
  const { feed } = google;
  const when = (iso: string | null | undefined) => (iso ? date(iso) : t("channels.google.never"));
  const shopify = useAppBridge();
  const copy = (url: string) =>
    navigator.clipboard
      .writeText(url)
      .then(() => shopify.toast.show(t("channels.google.copied")))
      .catch(() => shopify.toast.show(t("channels.google.copyFailed"), { isError: true }));
  return (
    <Section title={t("channels.google.title")}>
      <style>{FIGURES_CSS}</style>
      <Text as="p">{t("channels.google.body")}</Text>
      {google.feedUrl ? (
        <TextField
          label={t("channels.google.url")}
          value={google.feedUrl}
          readOnly
          selectTextOnFocus
          autoComplete="off"
          helpText={t("channels.google.urlHelp")}
          connectedRight={<Button onClick={() => void copy(google.feedUrl!)}>{t("channels.google.copy")}</Button>}
        />
      ) : (
        <Text as="p" tone="subdued">
          {t("channels.google.noUrl")}
        </Text>
      )}
      <FeedHealth google={google} />
      <dl className="channels-figures">
        <Figure label={t("channels.google.included")} value={feed ? number(feed.included) : "–"} />
        <Figure label={t("channels.google.minimum")} value={number(google.minimum)} />
        <Figure label={t("channels.google.builtAt")} value={when(feed?.builtAt)} />
        <Figure label={t("channels.google.fetchedAt")} value={when(feed?.fetchedAt)} />
      </dl>
      {feed?.overSize ? (
        <Text as="p" tone="caution">
          {t("channels.google.overSize", { count: feed.overSize })}
        </Text>
      ) : null}
    </Section>
  );
}

function LeftOutSection({ leftOut }: { leftOut: Google["leftOut"] }) {
  const { t } = useI18n();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const go = (page: number) => navigate(`/app/channels?page=${page}`);
  // A product's key only where its title does not single it out, as the other lists do.
  const shared = sharedTitles(leftOut.rows);
  return (
    <Section
      title={t("channels.leftOut.title")}
      actions={
        <Text as="span" tone="subdued">
          {t("common.total", { count: leftOut.total })}
        </Text>
      }
    >
      <Text as="p">{t("channels.leftOut.body")}</Text>
      {leftOut.capped ? (
        <Text as="p" tone="subdued">
          {t("channels.leftOut.capped", { count: leftOut.total })}
        </Text>
      ) : null}
      <ResourceTable
        resourceName={{ singular: t("channels.leftOut.product"), plural: t("channels.leftOut.products") }}
        headings={[t("channels.leftOut.product"), t("channels.leftOut.reasons"), t("channels.leftOut.fix")]}
        rows={leftOut.rows}
        rowId={(r) => r.key}
        loading={navigation.state === "loading"}
        cells={(r) => [
          <BlockStack key="p" gap="050">
            <Text as="span" fontWeight="semibold" breakWord>
              {r.title ?? r.key}
            </Text>
            {r.title && needsKey(r, shared) ? (
              <Text as="span" variant="bodySm" tone="subdued" breakWord>
                {t("channels.leftOut.key", { key: r.key })}
              </Text>
            ) : null}
          </BlockStack>,
          <BlockStack key="r" gap="100" inlineAlign="start">
            {r.reasons.map((reason) => (
              <StatusBadge key={reason}>{t(EXCLUSION_REASON_KEYS[reason])}</StatusBadge>
            ))}
          </BlockStack>,
          r.adminHref ? (
            // The Shopify admin opens its own page (App Bridge's `shopify:` links), not this frame.
            <Link
              key="f"
              url={r.adminHref}
              target="_top"
              accessibilityLabel={t("channels.leftOut.editLabel", { product: r.title ?? r.key })}
            >
              {t("channels.leftOut.edit")}
            </Link>
          ) : (
            <Text key="f" as="span" tone="subdued">
              {t("channels.leftOut.noLink")}
            </Text>
          ),
        ]}
        pagination={{
          hasPrevious: leftOut.page > 1,
          hasNext: leftOut.page < leftOut.pages,
          onPrevious: () => go(leftOut.page - 1),
          onNext: () => go(leftOut.page + 1),
          label: t("common.pageOf", { page: leftOut.page, pages: leftOut.pages }),
        }}
        empty={{ heading: t("channels.leftOut.empty"), body: t("channels.leftOut.emptyBody") }}
      />
    </Section>
  );
}

export default function ChannelsPage() {
  const { google, shopApp } = useLoaderData<typeof loader>();
  const { t } = useI18n();
  return (
    <AdminPage title={t("channels.title")}>
      <GoogleSection google={google} />
      {google.feed ? <LeftOutSection leftOut={google.leftOut} /> : null}
      <ShopAppSection status={shopApp} />
    </AdminPage>
  );
}
