import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useFetcher, useLoaderData, useNavigation } from "@remix-run/react";
import {
  Banner,
  BlockStack,
  Box,
  Button,
  FormLayout,
  InlineError,
  InlineStack,
  Text,
  TextField,
  Thumbnail,
} from "@shopify/polaris";
import { useAppBridge } from "@shopify/app-bridge-react";
import { useEffect, useMemo, useState } from "react";
import { authenticate } from "../shopify.server";
import { appContext } from "../.server/context.server";
import {
  editGroup,
  groupsPage,
  type GroupProduct,
  type GroupResult,
  type GroupRow,
  type ShopProduct,
} from "../.server/admin";
import { AdminPage, Section } from "../admin/ui/page";
import { Notice, ServiceStatus } from "../admin/ui/feedback";
import { ResourceTable } from "../admin/ui/table";
import { useListPage } from "../admin/ui/list-page";
import { useI18n } from "../admin/i18n/context";
import { sharedTitles } from "../admin/product-titles";
import { ProductName } from "../admin/ui/product-name";
import { productGid, productIdOf } from "../shared/product-ids";
import { useResource } from "../admin/ui/resource";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  return groupsPage(appContext(), session.shop, new URL(request.url).searchParams);
};

export const action = async ({ request }: ActionFunctionArgs): Promise<GroupResult> => {
  const { session } = await authenticate.admin(request);
  return editGroup(appContext(), session.shop, await request.formData());
};

/** A picked product: Shopify's id and the title the picker gave, named from the mirror once known. */
type Picked = { productId: string; title: string };

function ProductImage({ product }: { product: Pick<GroupProduct, "image"> }) {
  // The title is beside it: the image adds nothing a screen reader needs.
  return product.image ? (
    <Thumbnail size="small" source={product.image} alt="" />
  ) : (
    <Box background="bg-surface-secondary" borderRadius="200" minWidth="40px" minHeight="40px" aria-hidden />
  );
}

/** The products of a group, each with its image and title (its key too when a title is shared). */
function ProductList({
  products,
  shared,
  onRemove,
}: {
  products: GroupProduct[];
  shared: ReadonlySet<string>;
  onRemove?: (p: GroupProduct) => void;
}) {
  const { t } = useI18n();
  return (
    <ul role="list" style={{ listStyle: "none", margin: 0, padding: 0, display: "grid", gap: "8px" }}>
      {products.map((p) => (
        <li key={p.productId ?? `key:${p.key}`}>
          <InlineStack gap="200" blockAlign="center" wrap={false}>
            <ProductImage product={p} />
            <div style={{ flex: 1, minWidth: 0 }}>
              {p.productId === null ? (
                <BlockStack gap="050">
                  <Text as="span" breakWord>
                    {p.title ?? p.key}
                  </Text>
                  <Text as="span" variant="bodySm" tone="subdued">
                    {t("groups.unknownProduct")}
                  </Text>
                </BlockStack>
              ) : (
                <ProductName product={{ title: p.title, key: p.key }} shared={shared} />
              )}
            </div>
            {onRemove ? (
              <Button
                size="slim"
                variant="tertiary"
                onClick={() => onRemove(p)}
                accessibilityLabel={t("groups.remove", { title: p.title ?? p.key })}
              >
                {t("groups.removeShort")}
              </Button>
            ) : null}
          </InlineStack>
        </li>
      ))}
    </ul>
  );
}

/** Create (no group) or edit one: a name and products chosen with App Bridge's resource picker. */
function GroupForm({ group, onDone }: { group: GroupRow | null; onDone: () => void }) {
  const { t } = useI18n();
  const fetcher = useFetcher<typeof action>();
  const named = useResource<{ products: ShopProduct[] }>();
  const shopify = useAppBridge();
  const [name, setName] = useState(group?.name ?? "");
  const [picked, setPicked] = useState<Picked[]>(() =>
    (group?.products ?? []).flatMap((p) => (p.productId ? [{ productId: p.productId, title: p.title ?? p.key }] : [])),
  );
  // Keys of the group the mirror does not know: kept unless removed (the picker cannot show them).
  const [keys, setKeys] = useState<string[]>(() =>
    (group?.products ?? []).flatMap((p) => (p.productId ? [] : [p.key])),
  );
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  useEffect(() => {
    if (result?.ok) {
      shopify.toast.show(t(result.message.key));
      if (!group) {
        setName("");
        setPicked([]);
      }
      onDone();
    }
  }, [result, shopify, t, group, onDone]);

  const known = useMemo(() => {
    const map = new Map<string, ShopProduct>();
    for (const p of group?.products ?? []) if (p.productId) map.set(p.productId, p);
    for (const p of named.data?.products ?? []) map.set(p.productId, p);
    return map;
  }, [group, named.data]);
  const shown: GroupProduct[] = [
    ...picked.map(
      (p) => known.get(p.productId) ?? { productId: p.productId, key: p.productId, title: p.title, image: null },
    ),
    ...keys.map((key) => ({ productId: null, key, title: null, image: null })),
  ];
  const unsent = named.state === "idle" && named.data ? picked.filter((p) => !known.has(p.productId)) : [];

  async function choose() {
    const selection = await shopify.resourcePicker({
      type: "product",
      multiple: true,
      action: "select",
      selectionIds: picked.map((p) => ({ id: productGid(p.productId) })),
    });
    if (!selection) return;
    const next = selection.flatMap((p) => {
      const productId = productIdOf(p.id);
      return productId ? [{ productId, title: p.title }] : [];
    });
    setPicked(next);
    const missing = next.filter((p) => !known.has(p.productId)).map((p) => p.productId);
    if (missing.length) named.load(`/app/products?ids=${missing.join(",")}`);
  }

  const failed = result && !result.ok ? result : null;
  const productsError = failed?.fieldErrors?.products
    ? t(failed.fieldErrors.products.key, failed.fieldErrors.products.params)
    : null;
  const formLabel = group ? `${t("common.edit")} ${group.name}` : t("groups.create");
  return (
    <fetcher.Form method="post" aria-label={formLabel}>
      <input type="hidden" name="intent" value={group ? "update" : "create"} />
      {group ? <input type="hidden" name="id" value={group.id} /> : null}
      {picked.map((p) => (
        <input key={p.productId} type="hidden" name="product" value={p.productId} />
      ))}
      {keys.map((k) => (
        <input key={k} type="hidden" name="key" value={k} />
      ))}
      <FormLayout>
        {failed?.error ? (
          <Banner tone="critical">
            <p>{t(failed.error.key, failed.error.params)}</p>
          </Banner>
        ) : null}
        <TextField
          name="name"
          label={t("groups.name")}
          value={name}
          onChange={setName}
          autoComplete="off"
          error={failed?.fieldErrors?.name ? t(failed.fieldErrors.name.key) : undefined}
        />
        <BlockStack gap="200">
          <Text as="h3" variant="headingSm" id={`group-products-${group?.id ?? "new"}`}>
            {t("groups.products")}
          </Text>
          {shown.length ? (
            <ProductList
              products={shown}
              shared={sharedTitles(shown)}
              onRemove={(p) =>
                p.productId
                  ? setPicked((list) => list.filter((x) => x.productId !== p.productId))
                  : setKeys((list) => list.filter((k) => k !== p.key))
              }
            />
          ) : (
            <Text as="p" tone="subdued">
              {t("groups.noProducts")}
            </Text>
          )}
          {unsent.length ? (
            <Text as="p" tone="caution">
              {t("groups.notSent", { count: unsent.length })}
            </Text>
          ) : null}
          {productsError ? (
            <InlineError message={productsError} fieldID={`group-products-${group?.id ?? "new"}`} />
          ) : null}
          <InlineStack>
            <Button onClick={() => void choose()} loading={named.state !== "idle"}>
              {shown.length ? t("groups.changeProducts") : t("groups.chooseProducts")}
            </Button>
          </InlineStack>
        </BlockStack>
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
  const [deleting, setDeleting] = useState<GroupRow | null>(null);
  const { rows, total, error, paging } = useListPage("/app/groups", data, t);
  useEffect(() => {
    if (remove.state === "idle" && remove.data?.ok) {
      shopify.toast.show(t(remove.data.message.key));
      setDeleting(null);
    }
  }, [remove.state, remove.data, shopify, t]);
  const editingGroup = rows.find((g) => g.id === editing) ?? null;
  const shared = sharedTitles(rows.flatMap((g) => g.products));
  return (
    <AdminPage title={t("groups.title")}>
      <ServiceStatus connected={data.connected} error={error} />
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
      {remove.data && !remove.data.ok && remove.data.error ? (
        <Notice tone="critical">{t(remove.data.error.key, remove.data.error.params)}</Notice>
      ) : null}
      <Section
        title={t("groups.title")}
        actions={
          <Text as="span" tone="subdued">
            {t("common.total", { count: total })}
          </Text>
        }
      >
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
            <ProductList key="s" products={g.products} shared={shared} />,
            <BlockStack key="a" gap="100" inlineAlign="start">
              <InlineStack gap="200">
                <Button
                  size="slim"
                  onClick={() => setEditing(g.id)}
                  accessibilityLabel={`${t("common.edit")} ${g.name}`}
                >
                  {t("common.edit")}
                </Button>
                <Button
                  size="slim"
                  tone="critical"
                  onClick={() => setDeleting(g)}
                  accessibilityLabel={`${t("common.delete")} ${g.name}`}
                >
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
