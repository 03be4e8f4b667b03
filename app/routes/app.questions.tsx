import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useNavigate, useNavigation } from "@remix-run/react";
import { BlockStack, Select, Text } from "@shopify/polaris";
import { authenticate } from "../shopify.server";
import { appContext } from "../.server/context.server";
import { questionsPage } from "../.server/admin";
import { QUESTION_STATUSES } from "../shared/list-options";
import { AdminPage, Section, StatusBadge } from "../admin/ui/page";
import { ServiceStatus } from "../admin/ui/feedback";
import { ResourceTable } from "../admin/ui/table";
import { useListPage } from "../admin/ui/list-page";
import { useI18n } from "../admin/i18n/context";
import type { MessageKey } from "../shared/i18n/en";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  return questionsPage(appContext(), session.shop, new URL(request.url).searchParams);
};

export default function QuestionsPage() {
  const data = useLoaderData<typeof loader>();
  const { t, date } = useI18n();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const { rows, total, error, paging } = useListPage("/app/questions", data, t);
  return (
    <AdminPage title={t("questions.title")}>
      <ServiceStatus connected={data.connected} error={error} />
      <Section
        title={t("questions.title")}
        actions={
          <Text as="span" tone="subdued">
            {t("common.total", { count: total })}
          </Text>
        }
      >
        <Select
          label={t("questions.col.status")}
          value={data.status}
          onChange={(status) => navigate(`/app/questions?status=${status}`)}
          options={QUESTION_STATUSES.map((s) => ({ value: s, label: t(`questions.status.${s}` as MessageKey) }))}
        />
        <ResourceTable
          resourceName={{ singular: t("questions.col.question"), plural: t("questions.title") }}
          headings={[
            t("questions.col.question"),
            t("questions.col.product"),
            t("questions.col.status"),
            t("questions.col.date"),
            t("questions.col.answer"),
          ]}
          rows={rows}
          rowId={(r) => r.id}
          loading={navigation.state === "loading"}
          cells={(r) => [
            <BlockStack key="q" gap="050">
              <Text as="p" breakWord>
                {r.text}
              </Text>
              <Text as="p" variant="bodySm" tone="subdued">
                {t("reviews.by", { name: r.name })}
              </Text>
            </BlockStack>,
            r.productName ?? r.sku ?? "",
            <StatusBadge
              key="s"
              tone={r.status === "published" ? "success" : r.status === "sent" ? "attention" : undefined}
            >
              {t(`questions.status.${r.status}` as MessageKey)}
            </StatusBadge>,
            date(r.created),
            <Text key="a" as="p" breakWord>
              {r.answer ?? "–"}
            </Text>,
          ]}
          pagination={paging}
          empty={{ heading: t("questions.empty"), body: t("questions.empty.body") }}
        />
        <Text as="p" variant="bodySm" tone="subdued">
          {t("questions.answerInService")}
        </Text>
      </Section>
    </AdminPage>
  );
}
