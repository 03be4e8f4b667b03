import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useFetcher, useLoaderData, useNavigation } from "@remix-run/react";
import { Banner, BlockStack, Button, FormLayout, InlineStack, Text, TextField } from "@shopify/polaris";
import { useAppBridge } from "@shopify/app-bridge-react";
import { useEffect, useState } from "react";
import { authenticate } from "../shopify.server";
import { appContext } from "../.server/context.server";
import { editGroup, groupsPage, type GroupResult } from "../.server/admin/lists";
import { AdminPage, Section } from "../admin/ui/page";
import { Notice, ServiceStatus } from "../admin/ui/feedback";
import { ResourceTable } from "../admin/ui/table";
import { usePaging } from "../admin/ui/paging";
import { useI18n } from "../admin/i18n/context";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  return groupsPage(appContext(), session.shop, new URL(request.url).searchParams);
};

export const action = async ({ request }: ActionFunctionArgs): Promise<GroupResult> => {
  const { session } = await authenticate.admin(request);
  return editGroup(appContext(), session.shop, await request.formData());
};

type Group = { id: string; name: string; skus: string[] };

/** Create (no group) or edit one: name and SKUs; a 409 names the SKUs another group holds. */
function GroupForm({ group, onDone }: { group: Group | null; onDone: () => void }) {
  const { t } = useI18n();
  const fetcher = useFetcher<typeof action>();
  const shopify = useAppBridge();
  const [name, setName] = useState(group?.name ?? "");
  const [skus, setSkus] = useState(group?.skus.join("\n") ?? "");
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  useEffect(() => {
    if (result?.ok) {
      shopify.toast.show(t(result.message.key));
      if (!group) {
        setName("");
        setSkus("");
      }
      onDone();
    }
  }, [result, shopify, t, group, onDone]);
  const failed = result && !result.ok ? result : null;
  return (
    <fetcher.Form method="post" aria-label={group ? `${t("common.edit")} ${group.name}` : t("groups.create")}>
      <input type="hidden" name="intent" value={group ? "update" : "create"} />
      {group ? <input type="hidden" name="id" value={group.id} /> : null}
      <FormLayout>
        {failed?.error ? (
          <Banner tone="critical">
            <p>{t(failed.error.key, failed.error.params)}</p>
          </Banner>
        ) : null}
        <TextField name="name" label={t("groups.name")} value={name} onChange={setName} autoComplete="off" error={failed?.fieldErrors?.name ? t(failed.fieldErrors.name.key) : undefined} />
        <TextField
          name="skus"
          label={t("groups.skus")}
          helpText={t("groups.skus.help")}
          value={skus}
          onChange={setSkus}
          multiline={3}
          autoComplete="off"
          error={failed?.fieldErrors?.skus ? t(failed.fieldErrors.skus.key) : failed?.conflictingSkus ? failed.conflictingSkus.join(", ") : undefined}
        />
        <InlineStack gap="200">
          <Button submit variant="primary" loading={fetcher.state !== "idle"}>
            {group ? t("common.save") : t("groups.create")}
          </Button>
          {group ? <Button onClick={onDone}>{t("common.cancel")}</Button> : null}
        </InlineStack>
      </FormLayout>
    </fetcher.Form>
  );
}

export default function GroupsPage() {
  const data = useLoaderData<typeof loader>();
  const { t } = useI18n();
  const navigation = useNavigation();
  const remove = useFetcher<typeof action>();
  const shopify = useAppBridge();
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Group | null>(null);
  const rows = "rows" in data && data.rows ? data.rows : [];
  const total = "total" in data && typeof data.total === "number" ? data.total : 0;
  const paging = usePaging("/app/groups", "skip" in data && typeof data.skip === "number" ? data.skip : 0, rows.length, total, t);
  useEffect(() => {
    if (remove.state === "idle" && remove.data?.ok) {
      shopify.toast.show(t(remove.data.message.key));
      setDeleting(null);
    }
  }, [remove.state, remove.data, shopify, t]);
  const editingGroup = rows.find((g) => g.id === editing) ?? null;
  return (
    <AdminPage title={t("groups.title")}>
      <ServiceStatus connected={data.connected} error={"error" in data ? data.error : null} />
      {data.connected ? (
        <Section title={editingGroup ? `${t("common.edit")}: ${editingGroup.name}` : t("groups.create")}>
          <Text as="p" tone="subdued">
            {t("groups.help")}
          </Text>
          <GroupForm key={editingGroup?.id ?? "new"} group={editingGroup} onDone={() => setEditing(null)} />
        </Section>
      ) : null}
      {deleting ? (
        <Banner tone="warning" title={t("groups.confirmDelete", { name: deleting.name })}>
          <InlineStack gap="200">
            <remove.Form method="post">
              <input type="hidden" name="intent" value="delete" />
              <input type="hidden" name="id" value={deleting.id} />
              <Button submit tone="critical" variant="primary" loading={remove.state !== "idle"}>
                {t("common.delete")}
              </Button>
            </remove.Form>
            <Button onClick={() => setDeleting(null)}>{t("common.cancel")}</Button>
          </InlineStack>
        </Banner>
      ) : null}
      {remove.data && !remove.data.ok && remove.data.error ? <Notice tone="critical">{t(remove.data.error.key, remove.data.error.params)}</Notice> : null}
      <Section title={t("groups.title")} actions={<Text as="span" tone="subdued">{t("common.total", { count: total })}</Text>}>
        <ResourceTable
          resourceName={{ singular: t("groups.col.name"), plural: t("groups.title") }}
          headings={[t("groups.col.name"), t("groups.col.skus"), t("common.edit")]}
          rows={rows}
          rowId={(g) => g.id}
          loading={navigation.state === "loading"}
          cells={(g) => [
            <Text key="n" as="span" fontWeight="semibold">
              {g.name}
            </Text>,
            <Text key="s" as="p" breakWord>
              {g.skus.join(", ")}
            </Text>,
            <BlockStack key="a" gap="100" inlineAlign="start">
              <InlineStack gap="200">
                <Button size="slim" onClick={() => setEditing(g.id)} accessibilityLabel={`${t("common.edit")} ${g.name}`}>
                  {t("common.edit")}
                </Button>
                <Button size="slim" tone="critical" onClick={() => setDeleting(g)} accessibilityLabel={`${t("common.delete")} ${g.name}`}>
                  {t("common.delete")}
                </Button>
              </InlineStack>
            </BlockStack>,
          ]}
          pagination={paging}
          empty={{ heading: t("groups.empty"), body: t("groups.empty.body") }}
        />
      </Section>
    </AdminPage>
  );
}
