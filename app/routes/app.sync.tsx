import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useFetcher, useLoaderData } from "@remix-run/react";
import { BlockStack, Button, InlineStack, Text } from "@shopify/polaris";
import { useAppBridge } from "@shopify/app-bridge-react";
import { useEffect } from "react";
import { authenticate } from "../shopify.server";
import { appContext } from "../.server/context.server";
import { retryRefusedProducts, syncEverything, syncOverview } from "../.server/admin";
import { RESEND_REASON } from "../shared/resend-reason";
import { AdminPage, ProgressMeter, Section, StatusBadge } from "../admin/ui/page";
import { Notice } from "../admin/ui/feedback";
import { ResourceTable } from "../admin/ui/table";
import { usePollWhile } from "../admin/ui/poll";
import { useI18n } from "../admin/i18n/context";
import type { MessageKey } from "../shared/i18n/en";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  return syncOverview(appContext(), session.shop);
};

export const action = async ({ request }: ActionFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const form = await request.formData();
  const ctx = appContext();
  const intent = form.get("intent");
  if (intent === "sync-now" || intent === "retry-orders") {
    if (!(await ctx.shops.status(session.shop)).connected)
      return { ok: false as const, error: "common.notConnected" as MessageKey };
    await syncEverything(ctx, session.shop);
    return { ok: true as const, message: "sync.started" as MessageKey };
  }
  if (intent === "retry-product" || intent === "retry-products") {
    const ids = intent === "retry-products" ? "all" : form.getAll("productId").map(String);
    await retryRefusedProducts(ctx, session.shop, ids);
    return { ok: true as const, message: "sync.retried" as MessageKey };
  }
  return { ok: false as const, error: "error.unknown" as MessageKey };
};

type Data = ReturnType<typeof useLoaderData<typeof loader>>;
type Run = NonNullable<Data["catalog"]>;

const active = (run: Run | null) => Boolean(run && ["pending", "running", "reading"].includes(run.status));
const tone = (status: string) =>
  status === "completed" || status === "live"
    ? "success"
    : status === "failed" || status === "cancelled"
      ? "critical"
      : status === "never"
        ? undefined
        : "info";

/**
 * With no run: items sent as they came (webhooks) mean the kind is live, not "never run"; a
 * connected shop is told how to start one, an unconnected one to connect first.
 */
function RunCard({
  title,
  run,
  sentLive,
  connected,
}: {
  title: string;
  run: Run | null;
  sentLive: number;
  connected: boolean;
}) {
  const { t, number } = useI18n();
  const status = run?.status ?? (sentLive > 0 ? "live" : "never");
  const p = run?.progress;
  const done = p ? p.sent + p.unchanged + p.failed : 0;
  const total = p?.total ?? null;
  const percent = run?.status === "completed" ? 100 : total ? Math.min(100, (done / total) * 100) : null;
  return (
    <Section
      title={title}
      actions={<StatusBadge tone={tone(status)}>{t(`sync.status.${status}` as MessageKey)}</StatusBadge>}
    >
      {run ? (
        <BlockStack gap="200">
          <ProgressMeter
            label={
              total !== null
                ? t("sync.progress", { done: number(done), total: number(total) })
                : t("sync.progressUnknown", { done: number(done) })
            }
            progress={percent}
          />
          <Text as="p" tone="subdued">
            {t("sync.counts", {
              read: p!.read,
              sent: p!.sent,
              created: p!.created,
              updated: p!.updated,
              unchanged: p!.unchanged,
              failed: p!.failed,
            })}
          </Text>
          {run.readPath === "bulk" ? (
            <Text as="p" tone="subdued">
              {t("sync.readPath.bulk")}
            </Text>
          ) : null}
          {run.readPath === "paged" ? (
            <Text as="p" tone="caution">
              {t("sync.readPath.paged", { reason: run.readPathReason ?? "" })}
            </Text>
          ) : null}
          {run.error === RESEND_REASON ? (
            <Text as="p">{t("sync.resend")}</Text>
          ) : run.error ? (
            <Text as="p" tone="critical">
              {t("sync.error", { error: run.error })}
            </Text>
          ) : null}
        </BlockStack>
      ) : (
        <Text as="p">
          {sentLive > 0
            ? t("sync.noRuns.live", { count: number(sentLive) })
            : connected
              ? t("sync.noRuns.connected")
              : t("sync.noRuns.body")}
        </Text>
      )}
    </Section>
  );
}

export default function SyncPage() {
  const data = useLoaderData<typeof loader>();
  const { t, date, number } = useI18n();
  const fetcher = useFetcher<typeof action>();
  const shopify = useAppBridge();
  // Every second while a run is under way; otherwise now and then (retries, live changes, the worker).
  usePollWhile(true, active(data.catalog) || active(data.orders) ? 1000 : 5000);
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) shopify.toast.show(t(fetcher.data.message));
  }, [fetcher.state, fetcher.data, shopify, t]);
  const submit = (fields: Record<string, string>) => fetcher.submit(fields, { method: "post" });
  const busy = fetcher.state !== "idle";
  return (
    <AdminPage
      title={t("sync.title")}
      primaryAction={{
        content: t("sync.now"),
        onAction: () => submit({ intent: "sync-now" }),
        loading: busy && fetcher.formData?.get("intent") === "sync-now",
        disabled: !data.connected,
      }}
    >
      {!data.connected ? <Notice tone="warning">{t("common.notConnected")}</Notice> : null}
      {fetcher.data && !fetcher.data.ok ? <Notice tone="critical">{t(fetcher.data.error)}</Notice> : null}
      {data.addressRefused ? (
        <Notice tone="critical">
          <BlockStack gap="100">
            <Text as="p" fontWeight="semibold">
              {t("sync.addressRefused")}
            </Text>
            <Text as="p">
              {t("sync.addressRefused.paused", {
                since: date(data.addressRefused.since),
                next: data.addressRefused.nextProbeAt ? date(data.addressRefused.nextProbeAt) : "—",
              })}
            </Text>
            <Text as="p" tone="subdued" breakWord>
              {t("sync.addressRefused.detail", { detail: data.addressRefused.detail })}
            </Text>
          </BlockStack>
        </Notice>
      ) : null}
      {data.resend ? (
        <Section title={t("sync.forgotten.title")}>
          <BlockStack gap="100">
            <Text as="p">
              {t(data.resend.reason === "account" ? "sync.forgotten.account" : "sync.forgotten.unknown", {
                products: number(data.resend.products),
                orders: number(data.resend.orders),
                at: date(data.resend.at),
              })}
            </Text>
            {data.resend.denied ? (
              <Text as="p" tone="caution">
                {t("sync.forgotten.denied", {
                  denied: number(data.resend.denied),
                  hours: number(data.resend.windowHours),
                })}
              </Text>
            ) : null}
          </BlockStack>
        </Section>
      ) : null}
      <RunCard
        title={t("sync.catalog")}
        run={data.catalog}
        sentLive={data.products.synced}
        connected={data.connected}
      />
      <RunCard title={t("sync.orders")} run={data.orders} sentLive={data.ordersKnown.sent} connected={data.connected} />
      <Section title={t("sync.health")}>
        <Text as="p">
          {t("sync.mirror", {
            synced: data.products.synced,
            failed: data.products.failed,
            pending: data.products.pending,
          })}
        </Text>
        <Text as="p">{t("sync.ordersKnown", { sent: data.ordersKnown.sent, failed: data.ordersKnown.failed })}</Text>
        {data.queueDepth !== null ? (
          <Text as="p">
            {data.queueDepth.waiting ? t("sync.queueDepth", { count: data.queueDepth.waiting }) : t("sync.queueIdle")}
            {data.queueDepth.scheduled ? ` ${t("sync.queueScheduled", { count: data.queueDepth.scheduled })}` : ""}
          </Text>
        ) : null}
        {data.worker ? (
          <InlineStack gap="200" blockAlign="center">
            <StatusBadge tone="success">{t("sync.status.running")}</StatusBadge>
            <Text as="p">{t("sync.workerAlive", { seconds: data.worker.secondsAgo })}</Text>
          </InlineStack>
        ) : (
          <Notice tone="critical">{t("sync.workerDown")}</Notice>
        )}
      </Section>
      <Section
        title={`${t("sync.refused")}: ${t("sync.refusedProducts")}`}
        actions={
          data.refusedProducts.total ? (
            <Button
              onClick={() => submit({ intent: "retry-products" })}
              loading={busy && fetcher.formData?.get("intent") === "retry-products"}
            >
              {t("sync.retryAll")}
            </Button>
          ) : undefined
        }
      >
        <ResourceTable
          resourceName={{ singular: t("sync.col.product"), plural: t("sync.refusedProducts") }}
          headings={[t("sync.col.product"), t("sync.col.reason"), t("sync.col.when"), t("sync.retry")]}
          rows={data.refusedProducts.rows}
          rowId={(r) => r.productId}
          cells={(r) => [
            <Text as="span" fontWeight="semibold" key="p">
              {r.productId}
            </Text>,
            <Text as="span" key="e" breakWord>
              {r.error}
            </Text>,
            date(r.at),
            <Button
              key="b"
              size="slim"
              onClick={() => submit({ intent: "retry-product", productId: r.productId })}
              accessibilityLabel={`${t("sync.retry")} ${r.productId}`}
            >
              {t("sync.retry")}
            </Button>,
          ]}
          empty={{ heading: t("sync.noRefused"), body: t("sync.noRefused.body") }}
        />
      </Section>
      {data.refusedOrders.length ? (
        <Section
          title={`${t("sync.refused")}: ${t("sync.refusedOrders")}`}
          actions={<Button onClick={() => submit({ intent: "retry-orders" })}>{t("sync.retry")}</Button>}
        >
          <ResourceTable
            resourceName={{ singular: t("sync.col.order"), plural: t("sync.refusedOrders") }}
            headings={[t("sync.col.order"), t("sync.col.reason"), t("sync.col.when")]}
            rows={data.refusedOrders}
            rowId={(r) => r.orderId}
            cells={(r) => [r.orderId, r.error, date(r.at)]}
            empty={{ heading: t("sync.noRefused"), body: t("sync.noRefused.body") }}
          />
        </Section>
      ) : null}
      <Section title={t("sync.recentRuns")}>
        <ResourceTable
          resourceName={{ singular: t("sync.recentRuns"), plural: t("sync.recentRuns") }}
          headings={[
            t("sync.col.kind"),
            t("sync.col.status"),
            t("sync.col.started"),
            t("sync.col.finished"),
            t("sync.col.counts"),
          ]}
          rows={data.recent}
          rowId={(r) => r.id}
          cells={(r) => [
            t(r.kind === "catalog" ? "sync.catalog" : "sync.orders"),
            <StatusBadge key="s" tone={r.error === RESEND_REASON ? "info" : tone(r.status)}>
              {t(r.error === RESEND_REASON ? "sync.status.resent" : (`sync.status.${r.status}` as MessageKey))}
            </StatusBadge>,
            date(r.startedAt),
            date(r.finishedAt),
            `${number(r.progress.read)} / ${number(r.progress.sent)} / ${number(r.progress.failed)}`,
          ]}
          empty={{ heading: t("sync.noRuns"), body: t("sync.noRuns.body") }}
        />
      </Section>
    </AdminPage>
  );
}
