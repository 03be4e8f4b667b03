import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useNavigate, useNavigation } from "@remix-run/react";
import { InlineGrid, InlineStack, Select, Text } from "@shopify/polaris";
import { authenticate } from "../shopify.server";
import { appContext } from "../.server/context.server";
import { surveysPage } from "../.server/admin";
import { SURVEY_TYPES } from "../shared/list-options";
import { AdminPage, Section, StatusBadge } from "../admin/ui/page";
import { ServiceStatus } from "../admin/ui/feedback";
import { ResourceTable } from "../admin/ui/table";
import { useListPage } from "../admin/ui/list-page";
import { useI18n } from "../admin/i18n/context";
import { NpsOverTime, ScoreDistribution } from "../admin/ui/survey-charts";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  return surveysPage(appContext(), session.shop, new URL(request.url).searchParams);
};

type Summary = NonNullable<Extract<ReturnType<typeof useLoaderData<typeof loader>>, { summary: unknown }>["summary"]>;

function SurveySummarySection({ summary }: { summary: Summary }) {
  const { t, number } = useI18n();
  const g = summary.groups;
  return (
    <Section title={t("surveys.nps")}>
      <InlineStack gap="400" wrap>
        <Text as="p">
          {t("surveys.nps.short")} <b>{summary.nps === null ? "–" : number(summary.nps)}</b>
        </Text>
        <Text as="p">
          {t("surveys.type.promoters")}: {number(g.promoters)}
        </Text>
        <Text as="p">
          {t("surveys.type.neutral")}: {number(g.neutral)}
        </Text>
        <Text as="p">
          {t("surveys.type.detractors")}: {number(g.detractors)}
        </Text>
      </InlineStack>
      <Text as="p" variant="bodySm" tone="subdued">
        {summary.read < summary.total
          ? t("surveys.overAll.newest", { count: summary.total, read: summary.read })
          : t("surveys.overAll", { count: summary.total })}
      </Text>
      {summary.total ? (
        <InlineGrid columns={{ xs: 1, md: 2 }} gap="600" alignItems="start">
          <ScoreDistribution histogram={summary.histogram} />
          <NpsOverTime months={summary.months} />
        </InlineGrid>
      ) : null}
    </Section>
  );
}

export default function SurveysPage() {
  const data = useLoaderData<typeof loader>();
  const { t, date } = useI18n();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const { rows, total, error, paging } = useListPage("/app/surveys", data, t);
  return (
    <AdminPage title={t("surveys.title")}>
      <ServiceStatus connected={data.connected} error={error} />
      {"summary" in data && data.summary ? <SurveySummarySection summary={data.summary} /> : null}
      <Section
        title={t("surveys.title")}
        actions={
          <Text as="span" tone="subdued">
            {t("common.total", { count: total })}
          </Text>
        }
      >
        <Select
          label={t("surveys.col.score")}
          value={data.type}
          onChange={(type) => navigate(`/app/surveys?type=${type}`)}
          options={SURVEY_TYPES.map((s) => ({ value: s, label: t(`surveys.type.${s}`) }))}
        />
        <ResourceTable
          resourceName={{ singular: t("surveys.col.comment"), plural: t("surveys.title") }}
          headings={[
            t("surveys.col.score"),
            t("surveys.col.comment"),
            t("surveys.col.name"),
            t("surveys.col.order"),
            t("surveys.col.date"),
          ]}
          rows={rows}
          rowId={(r) => r.id}
          loading={navigation.state === "loading"}
          cells={(r) => [
            <InlineStack key="s" gap="100" blockAlign="center">
              <Text as="span" fontWeight="semibold">
                {r.score ?? "–"}
              </Text>
              {r.partial ? <StatusBadge tone="attention">{t("surveys.partial")}</StatusBadge> : null}
            </InlineStack>,
            <Text key="c" as="p" breakWord>
              {r.comment || "–"}
            </Text>,
            r.name,
            r.order ?? "",
            date(r.created),
          ]}
          pagination={paging}
          empty={{ heading: t("surveys.empty"), body: t("surveys.empty.body") }}
        />
      </Section>
    </AdminPage>
  );
}
