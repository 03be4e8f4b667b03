import type { LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { Button, Checkbox, FormLayout, InlineGrid, Select, Text, TextField } from "@shopify/polaris";
import { useAppBridge } from "@shopify/app-bridge-react";
import { useState } from "react";
import { authenticate } from "../shopify.server";
import { appContext } from "../.server/context.server";
import { reportPage } from "../.server/admin";
import { AdminPage, Section } from "../admin/ui/page";
import { ErrorNotice, Notice } from "../admin/ui/feedback";
import { useListPage } from "../admin/ui/list-page";
import { ResourceTable } from "../admin/ui/table";
import { useI18n } from "../admin/i18n/context";
import { REPORT_ORDERS } from "../shared/report-orders";
import { adminProductLink } from "../shared/theme-blocks";
import { ReviewsOverTime, StarDistribution } from "../admin/ui/review-charts";
import { averageFormatter } from "../admin/averages";
import { sharedTitles } from "../admin/product-titles";
import { ProductName } from "../admin/ui/product-name";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  return { ...(await reportPage(appContext(), session.shop, new URL(request.url).searchParams)), shop: session.shop };
};

function ReportFilters({ form, invalid }: { form: Record<string, string>; invalid: string[] }) {
  const { t } = useI18n();
  const [v, setV] = useState(form);
  const set = (k: string) => (value: string) => setV((o) => ({ ...o, [k]: value }));
  const dateError = invalid.some((k) => k.startsWith("date")) ? t("report.invalidDates") : undefined;
  return (
    <Form method="get" aria-label={t("report.title")}>
      <FormLayout>
        <InlineGrid columns={{ xs: 1, sm: 2, md: 4 }} gap="300">
          <Select
            name="order"
            label={t("report.order")}
            value={v.order ?? "MoreReviews"}
            onChange={set("order")}
            options={REPORT_ORDERS.map((o) => ({ value: o, label: t(`report.order.${o}`) }))}
          />
          <TextField
            name="dateFrom"
            type="date"
            label={t("report.dateFrom")}
            value={v.dateFrom ?? ""}
            onChange={set("dateFrom")}
            autoComplete="off"
            error={dateError}
          />
          <TextField
            name="dateTo"
            type="date"
            label={t("report.dateTo")}
            value={v.dateTo ?? ""}
            onChange={set("dateTo")}
            autoComplete="off"
          />
          <TextField
            name="categories"
            label={t("report.categories")}
            helpText={t("report.categories.help")}
            value={v.categories ?? ""}
            onChange={set("categories")}
            autoComplete="off"
          />
        </InlineGrid>
        <Checkbox
          name="onlyPublished"
          value="true"
          label={t("report.onlyPublished")}
          checked={v.onlyPublished === "true"}
          onChange={(c) => setV((o) => ({ ...o, onlyPublished: c ? "true" : "" }))}
        />
        <Button submit variant="primary">
          {t("report.apply")}
        </Button>
      </FormLayout>
    </Form>
  );
}

export default function ReportPage() {
  const data = useLoaderData<typeof loader>();
  const { t, number, locale } = useI18n();
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const shopify = useAppBridge();
  const [exporting, setExporting] = useState(false);
  const { rows, total, error, paging } = useListPage("/app/report", data, t);

  async function exportCsv() {
    setExporting(true);
    try {
      const q = new URLSearchParams(params);
      q.delete("skip");
      q.set("locale", locale);
      // fetch, not a link: App Bridge adds the session token to the app's own requests only.
      const res = await fetch(`/app/report.csv?${q}`);
      if (!res.ok) throw new Error(String(res.status));
      const blob = await res.blob();
      const name = /filename="([^"]+)"/.exec(res.headers.get("Content-Disposition") ?? "")?.[1] ?? "product-report.csv";
      const url = URL.createObjectURL(blob);
      const a = document.createElement("a");
      a.href = url;
      a.download = name;
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      shopify.toast.show(t("report.exported"));
    } catch {
      shopify.toast.show(t("error.unreachable"), { isError: true });
    } finally {
      setExporting(false);
    }
  }

  const rating = averageFormatter(locale);
  const shared = sharedTitles(rows.map((r) => ({ title: r.name, key: r.sku })));
  return (
    <AdminPage
      title={t("report.title")}
      primaryAction={{
        content: t("report.export"),
        onAction: () => void exportCsv(),
        loading: exporting,
        disabled: !data.connected || error !== null,
      }}
    >
      {!data.connected ? (
        <Notice tone="warning">
          {t("common.notConnected")} <Link to="/app">{t("common.connectLink")}</Link>
        </Notice>
      ) : null}
      <Section>
        <ReportFilters key={params.toString()} form={data.form} invalid={data.invalid} />
      </Section>
      {error ? <ErrorNotice error={error} /> : null}
      {"trends" in data && data.trends ? (
        <Section title={t("report.charts")}>
          <InlineGrid columns={{ xs: 1, md: "2fr 1fr" }} gap="600" alignItems="start">
            <ReviewsOverTime months={data.trends.months} capped={data.trends.capped} />
            <StarDistribution stars={data.trends.stars} average={data.trends.average} />
          </InlineGrid>
        </Section>
      ) : null}
      {data.connected && !error ? (
        <Section
          title={t("report.title")}
          actions={
            <Text as="span" tone="subdued">
              {t("common.total", { count: total })}
            </Text>
          }
        >
          <ResourceTable
            resourceName={{ singular: t("report.col.product"), plural: t("report.title") }}
            headings={[
              t("report.col.product"),
              t("report.col.reviews"),
              t("report.col.rating"),
              t("report.col.published"),
              t("report.col.publishedRating"),
              t("report.col.pictures"),
              t("report.col.categories"),
            ]}
            rows={rows}
            rowId={(r) => r.sku}
            loading={navigation.state === "loading"}
            cells={(r) => [
              <ProductName
                key="p"
                product={{ title: r.name, key: r.sku }}
                shared={shared}
                link={(label) => (
                  <a href={adminProductLink(data.shop, r.sku)} target="_top">
                    {label}
                  </a>
                )}
              />,
              number(r.reviewCount),
              rating(r.aggregateRating),
              number(r.publishedCount),
              rating(r.publishedAggregateRating),
              r.withPictures === null ? "–" : number(r.withPictures),
              r.categories.join(", "),
            ]}
            pagination={paging}
            empty={{ heading: t("report.empty"), body: t("report.empty.body") }}
          />
        </Section>
      ) : null}
    </AdminPage>
  );
}
