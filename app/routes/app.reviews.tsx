import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData, useNavigation, useRevalidator, useSearchParams } from "@remix-run/react";
import { BlockStack, Box, InlineStack, Text, Thumbnail, useIndexResourceState } from "@shopify/polaris";
import { useAppBridge } from "@shopify/app-bridge-react";
import { useState } from "react";
import { authenticate } from "../shopify.server";
import { appContext } from "../.server/context.server";
import { reviewsPage, type ReviewRow } from "../.server/admin";
import { Filters } from "../admin/review-filter-form";
import { AdminPage, ProgressMeter, Section, StatusBadge } from "../admin/ui/page";
import { ErrorNotice, Notice } from "../admin/ui/feedback";
import { useListPage } from "../admin/ui/list-page";
import { ResourceTable } from "../admin/ui/table";
import { useI18n } from "../admin/i18n/context";
import type { MessageKey } from "../shared/i18n/en";
import type { UiMessage } from "../shared/messages";
import { adminProductLink } from "../shared/theme-blocks";
import { sharedTitles } from "../admin/product-titles";
import { ProductName } from "../admin/ui/product-name";
import { ReviewDetail } from "../admin/review-detail";
import { Announcer, RowActions, useModerationShortcuts } from "../admin/moderation-queue";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const page = await reviewsPage(appContext(), session.shop, new URL(request.url).searchParams);
  return { ...page, shop: session.shop };
};

const BULK_SLICE = 10;

function Stars({ rating }: { rating: number }) {
  const { t } = useI18n();
  return (
    <span role="img" aria-label={t("reviews.stars", { rating })} style={{ color: "#b98900", whiteSpace: "nowrap" }}>
      {"★".repeat(Math.round(rating))}
      <span style={{ color: "#8a8a8a" }}>{"★".repeat(5 - Math.round(rating))}</span>
    </span>
  );
}

function ReviewCell({ r }: { r: ReviewRow }) {
  const { t, date } = useI18n();
  return (
    <BlockStack gap="100">
      <Text as="p" breakWord>
        {r.text || t("reviews.noText")}
      </Text>
      <Text as="p" variant="bodySm" tone="subdued">
        {t("reviews.by", { name: r.name })}
        {r.verified ? ` · ${t("reviews.verified")}` : ""}
        {r.order ? ` · ${t("reviews.order", { order: r.orderName ?? r.order })}` : ""}
      </Text>
      {r.pictures.length || r.video ? (
        <InlineStack gap="100" blockAlign="center">
          {r.pictures.map((url, i) => (
            <a key={url} href={url} target="_blank" rel="noopener noreferrer">
              <Thumbnail size="small" source={url} alt={t("reviews.photoAlt", { n: i + 1, name: r.name })} />
            </a>
          ))}
          {r.video ? (
            <a href={r.video} target="_blank" rel="noopener noreferrer">
              {t("reviews.video")}
            </a>
          ) : null}
        </InlineStack>
      ) : null}
      {r.reply ? (
        <Box padding="200" background="bg-surface-secondary" borderRadius="200">
          <Text as="p" variant="bodySm">
            <b>{t("reviews.reply")}</b> {r.reply.created ? `(${date(r.reply.created)})` : ""}: {r.reply.text}
          </Text>
        </Box>
      ) : null}
    </BlockStack>
  );
}

type Bulk = { total: number; done: number; ok: number; failed: { id: string; error: UiMessage }[] };

export default function ReviewsPage() {
  const data = useLoaderData<typeof loader>();
  const { t, date } = useI18n();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const [params] = useSearchParams();
  const shopify = useAppBridge();
  const { rows, total, error, paging } = useListPage("/app/reviews", data, t);
  const { selectedResources, allResourcesSelected, handleSelectionChange, clearSelection } = useIndexResourceState(
    rows as unknown as { [key: string]: unknown }[],
    {
      resourceIDResolver: (r) => String((r as unknown as ReviewRow).id),
    },
  );
  const [bulk, setBulk] = useState<Bulk | null>(null);

  const [openId, setOpenId] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  /** One review from its row, the detail or the keyboard: the detail then moves to the next review. */
  async function moderateOne(row: ReviewRow, approved: boolean) {
    if (busy) return;
    const index = rows.findIndex((r) => r.id === row.id);
    const next = rows[index + 1];
    setBusy(true);
    const ok = await moderate([row.id], approved, true);
    setBusy(false);
    if (!ok) return;
    const name = row.name || t("reviews.detail.anonymous");
    const done = t(approved ? "reviews.row.approved" : "reviews.row.rejected", { name });
    shopify.toast.show(done);
    announce(done);
    if (openId) setOpenId(next?.id ?? null);
  }
  const { announcement, announce } = useModerationShortcuts(rows, openId, (row, approved) => {
    void moderateOne(row, approved);
  });

  /** Approves or rejects reviews a slice at a time; one review (`quiet`) shows no bulk progress. */
  async function moderate(ids: string[], approved: boolean, quiet = false): Promise<boolean> {
    const state: Bulk = { total: ids.length, done: 0, ok: 0, failed: [] };
    if (!quiet) setBulk({ ...state });
    for (let i = 0; i < ids.length; i += BULK_SLICE) {
      const slice = ids.slice(i, i + BULK_SLICE);
      try {
        const res = await fetch("/app/reviews/moderate", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ ids: slice, approved }),
        });
        const body = (await res.json()) as {
          done?: string[];
          failed?: { id: string; error: UiMessage }[];
          error?: UiMessage;
        };
        if (body.error) state.failed.push(...slice.map((id) => ({ id, error: body.error! })));
        state.ok += body.done?.length ?? 0;
        state.failed.push(...(body.failed ?? []));
      } catch {
        state.failed.push(...slice.map((id) => ({ id, error: { key: "error.unreachable" as const } })));
      }
      state.done = Math.min(ids.length, i + slice.length);
      if (!quiet || state.failed.length) setBulk({ ...state, failed: [...state.failed] });
    }
    revalidator.revalidate();
    if (quiet) return state.ok === ids.length;
    clearSelection();
    shopify.toast.show(t("reviews.bulkDone", { count: state.ok, ok: state.ok }));
    return state.ok === ids.length;
  }

  const byId = new Map(rows.map((r) => [r.id, r]));
  const sharedProductTitles = sharedTitles(rows.map((r) => ({ title: r.productName, key: r.productKey })));
  const running = bulk && bulk.done < bulk.total;
  const opened = openId ? byId.get(openId) : undefined;

  return (
    <AdminPage title={t("reviews.title")}>
      <Announcer text={announcement} />
      {opened ? (
        <ReviewDetail
          row={opened}
          productTitle={opened.productName ?? opened.productKey}
          busy={busy}
          onModerate={(approved) => void moderateOne(opened, approved)}
          onClose={() => setOpenId(null)}
        />
      ) : null}
      {!data.connected ? (
        <Notice tone="warning">
          {t("common.notConnected")} <Link to="/app">{t("common.connectLink")}</Link>
        </Notice>
      ) : null}
      {data.invalid.length ? (
        <Notice tone="warning">
          {t("reviews.filter.invalid", {
            fields: data.invalid.map((k) => t(`reviews.filter.${k}` as MessageKey)).join(", "),
          })}
        </Notice>
      ) : null}
      <Filters key={params.toString()} form={data.form} invalid={data.invalid} />
      {error ? <ErrorNotice error={error} /> : null}
      {bulk ? (
        <Section>
          <ProgressMeter
            label={
              running
                ? t("reviews.bulkProgress", { done: bulk.done, total: bulk.total })
                : t("reviews.bulkDone", { count: bulk.ok, ok: bulk.ok })
            }
            progress={(bulk.done / bulk.total) * 100}
          />
          {bulk.failed.length ? (
            <Notice tone="critical" title={t("reviews.bulkFailed", { failed: bulk.failed.length })}>
              <ul>
                {bulk.failed.map((f) => {
                  const r = byId.get(f.id);
                  return (
                    <li key={f.id}>
                      {r ? `${r.name} (${r.productName ?? r.productKey})` : f.id}: {t(f.error.key, f.error.params)}
                    </li>
                  );
                })}
              </ul>
            </Notice>
          ) : null}
        </Section>
      ) : null}
      {data.connected && !error ? (
        <Section
          actions={
            <Text as="span" tone="subdued">
              {t("common.total", { count: total })}
            </Text>
          }
          title={t("reviews.title")}
        >
          <ResourceTable
            resourceName={{ singular: t("reviews.col.review"), plural: t("reviews.title") }}
            headings={[
              t("reviews.col.rating"),
              t("reviews.col.review"),
              t("reviews.col.product"),
              t("reviews.col.status"),
              t("reviews.col.date"),
            ]}
            rows={rows}
            rowId={(r) => r.id}
            onRowClick={(r) => setOpenId(r.id)}
            loading={navigation.state === "loading" || Boolean(running)}
            cells={(r) => [
              <Stars key="s" rating={r.rating} />,
              <ReviewCell key="r" r={r} />,
              <ProductName
                key="p"
                product={{ title: r.productName, key: r.productKey }}
                shared={sharedProductTitles}
                link={(label) => (
                  <a
                    href={adminProductLink(data.shop, r.productKey)}
                    target="_top"
                    aria-label={`${t("reviews.openProduct")}: ${r.productName ?? r.productKey}`}
                  >
                    {label}
                  </a>
                )}
              />,
              <BlockStack key="st" gap="200" inlineAlign="start">
                <StatusBadge
                  tone={r.status === "published" ? "success" : r.status === "pending" ? "attention" : undefined}
                >
                  {t(`reviews.status.${r.status}` as MessageKey)}
                </StatusBadge>
                <RowActions
                  row={r}
                  busy={busy || Boolean(running)}
                  onModerate={(approved) => void moderateOne(r, approved)}
                  onOpen={() => setOpenId(r.id)}
                />
              </BlockStack>,
              date(r.created),
            ]}
            selection={{
              selected: selectedResources,
              allSelected: allResourcesSelected,
              onSelectionChange: handleSelectionChange,
              promotedBulkActions: [
                { content: t("reviews.approveSelected"), onAction: () => void moderate(selectedResources, true) },
                { content: t("reviews.rejectSelected"), onAction: () => void moderate(selectedResources, false) },
              ],
            }}
            // Buttons, not links: Polaris marks a disabled pagination link up with ARIA a link may not have.
            pagination={paging}
            empty={{ heading: t("reviews.empty"), body: t("reviews.empty.body") }}
          />
          <Text as="p" variant="bodySm" tone="subdued">
            {t("reviews.keys.hint")} {t("reviews.replyInService")}
          </Text>
        </Section>
      ) : null}
    </AdminPage>
  );
}
