import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useNavigate, useNavigation } from "@remix-run/react";
import { BlockStack, InlineStack, Select, Text } from "@shopify/polaris";
import { authenticate } from "../shopify.server";
import { appContext } from "../.server/context.server";
import { surveysPage } from "../.server/admin/lists";
import { SURVEY_TYPES } from "../admin/list-options";
import { AdminPage, Section, StatusBadge } from "../admin/ui/page";
import { ServiceStatus } from "../admin/ui/feedback";
import { ResourceTable } from "../admin/ui/table";
import { usePaging } from "../admin/ui/paging";
import { useI18n } from "../admin/i18n/context";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  return surveysPage(appContext(), session.shop, new URL(request.url).searchParams);
};

function Distribution({ histogram, shown }: { histogram: number[]; shown: number }) {
  const { t } = useI18n();
  const max = Math.max(1, ...histogram);
  return (
    <BlockStack gap="100">
      <ul aria-label={t("surveys.distribution")} style={{ listStyle: "none", padding: 0, margin: 0, display: "grid", gap: 4 }}>
        {histogram.map((n, score) => (
          <li key={score} style={{ display: "grid", gridTemplateColumns: "5.5rem 1fr 6rem", alignItems: "center", gap: 8 }}>
            <Text as="span" variant="bodySm">
              {t("surveys.score", { score })}
            </Text>
            <span aria-hidden style={{ display: "block", height: 10, borderRadius: 4, background: score >= 9 ? "#29845a" : score >= 7 ? "#b98900" : "#c70a24", width: `${(n / max) * 100}%`, minWidth: n ? 4 : 0 }} />
            <Text as="span" variant="bodySm" tone="subdued">
              {t("surveys.scoreCount", { count: n })}
            </Text>
          </li>
        ))}
      </ul>
      <Text as="p" variant="bodySm" tone="subdued">
        {t("surveys.distributionOfPage", { count: shown })}
      </Text>
    </BlockStack>
  );
}

export default function SurveysPage() {
  const data = useLoaderData<typeof loader>();
  const { t, date } = useI18n();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const rows = "rows" in data && data.rows ? data.rows : [];
  const total = "total" in data && typeof data.total === "number" ? data.total : 0;
  const paging = usePaging("/app/surveys", "skip" in data && typeof data.skip === "number" ? data.skip : 0, rows.length, total, t);
  return (
    <AdminPage title={t("surveys.title")}>
      <ServiceStatus connected={data.connected} error={"error" in data ? data.error : null} />
      {"groups" in data && data.groups ? (
        <Section title={t("surveys.distribution")}>
          <InlineStack gap="400" wrap>
            <Text as="p">
              NPS <b>{data.nps ?? "–"}</b>
            </Text>
            <Text as="p">
              {t("surveys.type.promoters")}: {data.groups.promoters}
            </Text>
            <Text as="p">
              {t("surveys.type.neutral")}: {data.groups.neutral}
            </Text>
            <Text as="p">
              {t("surveys.type.detractors")}: {data.groups.detractors}
            </Text>
          </InlineStack>
          <Distribution histogram={data.histogram} shown={rows.length} />
        </Section>
      ) : null}
      <Section title={t("surveys.title")} actions={<Text as="span" tone="subdued">{t("common.total", { count: total })}</Text>}>
        <Select label={t("surveys.col.score")} value={data.type} onChange={(type) => navigate(`/app/surveys?type=${type}`)} options={SURVEY_TYPES.map((s) => ({ value: s, label: t(`surveys.type.${s}`) }))} />
        <ResourceTable
          resourceName={{ singular: t("surveys.col.comment"), plural: t("surveys.title") }}
          headings={[t("surveys.col.score"), t("surveys.col.comment"), t("surveys.col.name"), t("surveys.col.order"), t("surveys.col.date")]}
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
