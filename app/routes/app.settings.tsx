import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Link, useFetcher, useLoaderData } from "@remix-run/react";
import { Banner, BlockStack, Checkbox, FormLayout, Select, Text, TextField } from "@shopify/polaris";
import { SaveBar, useAppBridge } from "@shopify/app-bridge-react";
import { useEffect, useMemo, useState } from "react";
import { authenticate } from "../shopify.server";
import { appContext } from "../.server/context.server";
import { saveSettingsForm, settingsFormState, type SettingsSaveResult } from "../.server/admin";
import { AdminPage, Section } from "../admin/ui/page";
import { Notice } from "../admin/ui/feedback";
import { useI18n } from "../admin/i18n/context";
import { isMessageKey } from "../shared/i18n/translate";
import { settingValueKey } from "../shared/setting-words";
import { validateField, type FieldSpec, type FieldValue } from "../shared/settings-fields";
import type { UiMessage } from "../shared/messages";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const ctx = appContext();
  const form = await settingsFormState(ctx, session.shop);
  return form;
};

export const action = async ({ request }: ActionFunctionArgs): Promise<SettingsSaveResult> => {
  const { session } = await authenticate.admin(request);
  return saveSettingsForm(appContext(), session.shop, await request.formData());
};

const SAVE_BAR_ID = "settings-save-bar";

function useLabels() {
  const { t } = useI18n();
  return {
    label: (path: string) => (isMessageKey(`setting.${path}`) ? t(`setting.${path}` as never) : path),
    help: (path: string) => {
      if (isMessageKey(`setting.${path}.help`)) return t(`setting.${path}.help` as never);
      if (path.startsWith("orders.optOut.")) return t("setting.orders.optOut.help");
      return undefined;
    },
    option: (path: string, value: string) => {
      const key = settingValueKey(path, value);
      return key ? t(key) : value;
    },
  };
}

function Field({
  spec,
  value,
  error,
  onChange,
}: {
  spec: FieldSpec;
  value: FieldValue;
  error?: UiMessage;
  onChange: (v: FieldValue) => void;
}) {
  const { t } = useI18n();
  const labels = useLabels();
  const message = error ? t(error.key, error.params) : undefined;
  // A setting's own help says it best; the generic hints are for settings that have none yet.
  const help =
    labels.help(spec.path) ??
    [spec.leaf.kind === "list" ? t("settings.listHelp") : null, spec.nullable ? t("settings.nullableHelp") : null]
      .filter(Boolean)
      .join(" ");
  if (spec.leaf.kind === "boolean") {
    return (
      <Checkbox
        name={spec.path}
        value="true"
        label={labels.label(spec.path)}
        checked={value === true}
        onChange={(v) => onChange(v)}
        helpText={help || undefined}
        error={message}
      />
    );
  }
  if (spec.leaf.kind === "enum") {
    const options = spec.leaf.values.map((v) => ({ value: v, label: labels.option(spec.path, v) }));
    return (
      <Select
        name={spec.path}
        label={labels.label(spec.path)}
        options={options}
        value={String(value)}
        onChange={onChange}
        helpText={help || undefined}
        error={message}
      />
    );
  }
  return (
    <TextField
      name={spec.path}
      label={labels.label(spec.path)}
      value={String(value)}
      onChange={onChange}
      type={spec.leaf.kind === "number" ? "number" : "text"}
      autoComplete="off"
      helpText={help || undefined}
      error={message}
    />
  );
}

export default function SettingsPage() {
  const data = useLoaderData<typeof loader>();
  const { t, number } = useI18n();
  const fetcher = useFetcher<typeof action>();
  const shopify = useAppBridge();
  const [values, setValues] = useState(data.values);
  const [confirmed, setConfirmed] = useState(false);
  // Stored values that changed (a save) are the new baseline; a reload of the same values after a
  // refused save keeps what the merchant typed.
  const stored = JSON.stringify(data.values);
  useEffect(() => setValues(JSON.parse(stored)), [stored]);
  const dirty = useMemo(() => Object.keys(values).some((k) => values[k] !== data.values[k]), [values, data.values]);
  const visible = (f: FieldSpec) => {
    if (!f.onlyWhen) return true;
    const [path, allowed] = f.onlyWhen.split("=");
    return allowed.split(" or ").includes(String(values[path]));
  };
  // Checked as typed; a field that does not apply (seller property without that mode) is not posted.
  const inline: Record<string, UiMessage> = {};
  for (const f of data.fields.filter(visible)) {
    const problem = validateField(f, values[f.path]);
    if (problem) inline[f.path] = problem;
  }
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  const serverErrors: Partial<Record<string, UiMessage>> =
    result && !result.ok && "fieldErrors" in result ? result.fieldErrors : {};
  const confirm = result && !result.ok && "confirmVariantKey" in result ? result.confirmVariantKey : null;
  useEffect(() => {
    if (result?.ok) {
      shopify.toast.show(
        t("saved" in result ? (result.resync ? "settings.variantKeyResync" : "settings.saved") : "settings.unchanged"),
      );
      setConfirmed(false);
    }
  }, [result, shopify, t]);

  const save = () => {
    if (Object.keys(inline).length) return;
    const form = new FormData();
    for (const f of data.fields) {
      if (!visible(f)) continue;
      const v = values[f.path];
      if (typeof v === "boolean") {
        if (v) form.set(f.path, "true");
      } else form.set(f.path, v);
    }
    if (confirm && confirmed) form.set("confirmVariantKey", `${confirm.from}->${confirm.to}`);
    fetcher.submit(form, { method: "post" });
  };
  const discard = () => {
    setValues(data.values);
    setConfirmed(false);
  };
  const errorOf = (path: string) => inline[path] ?? serverErrors[path];
  // One section per top-level group of the settings module, in its order: a group added there
  // shows here without a change to this page.
  const groups = [...new Set(data.fields.map((f) => f.path.split(".")[0]))];
  const labels = useLabels();
  const showDefault = (f: FieldSpec, v: FieldValue) => {
    if (typeof v === "boolean") return t(v ? "common.yes" : "common.no");
    if (f.leaf.kind === "enum") return labels.option(f.path, v);
    return v || t("common.none");
  };
  const keyLabel = (k: string) => t(k === "sku" ? "settings.keys.sku" : "settings.keys.id");

  return (
    <AdminPage title={t("settings.title")}>
      <SaveBar id={SAVE_BAR_ID} open={dirty}>
        <button variant="primary" onClick={save} disabled={fetcher.state !== "idle" || Object.keys(inline).length > 0}>
          {t("common.save")}
        </button>
        <button onClick={discard}>{t("common.discard")}</button>
      </SaveBar>
      {Object.keys(serverErrors).length ? <Notice tone="critical">{t("settings.notSaved")}</Notice> : null}
      {confirm ? (
        <Banner tone="warning" title={t("settings.variantKeyWarning.title")}>
          <BlockStack gap="200">
            <p>
              {confirm.count.ok
                ? t("settings.variantKeyWarning.body", {
                    count: number(confirm.count.total),
                    customer: confirm.count.customer,
                    from: keyLabel(confirm.from),
                    to: keyLabel(confirm.to),
                  })
                : t("settings.variantKeyWarning.unknown", { reason: confirm.count.reason })}
            </p>
            <Checkbox label={t("settings.variantKeyWarning.confirm")} checked={confirmed} onChange={setConfirmed} />
          </BlockStack>
        </Banner>
      ) : null}
      {groups.map((g) => (
        <Section key={g} title={t(`settings.section.${g}` as never)}>
          <FormLayout>
            {data.fields
              .filter((f) => f.path.startsWith(`${g}.`) && visible(f))
              .map((f) => (
                <BlockStack key={f.path} gap="050">
                  <Field
                    spec={f}
                    value={values[f.path]}
                    error={errorOf(f.path)}
                    onChange={(v) => setValues((old) => ({ ...old, [f.path]: v }))}
                  />
                  {values[f.path] !== data.defaults[f.path] ? (
                    <Text as="p" variant="bodySm" tone="subdued">
                      {t("settings.default", { value: showDefault(f, data.defaults[f.path]) })}
                    </Text>
                  ) : null}
                </BlockStack>
              ))}
            {g === "googleFeed" ? (
              <Text as="p">
                {t("settings.googleFeed.moved")} <Link to="/app/channels">{t("settings.googleFeed.open")}</Link>
              </Text>
            ) : null}
          </FormLayout>
        </Section>
      ))}
      <Section title={t("settings.section.filters")}>
        <BlockStack gap="200">
          <Text as="p">{t("settings.filters.body")}</Text>
          <ol>
            <li>{t("settings.filters.step1")}</li>
            <li>{t("settings.filters.step2")}</li>
            <li>{t("settings.filters.step3")}</li>
          </ol>
        </BlockStack>
      </Section>
    </AdminPage>
  );
}
