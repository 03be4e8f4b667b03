import { useFetcher } from "@remix-run/react";
import { Button, FormLayout } from "@shopify/polaris";
import { useAppBridge } from "@shopify/app-bridge-react";
import { useEffect, useState } from "react";
import type { CredentialsResult, OnboardingState } from "../.server/admin";
import { useI18n } from "./i18n/context";
import { Notice } from "./ui/feedback";
import { Section, TextInput } from "./ui/page";

// The home page's connection form: the reviews account's keys (the secret write-only) and, behind
// "advanced", the service's addresses. Posts to the home page's action (intent "credentials").

export function CredentialsForm({ connection }: { connection: OnboardingState["connection"] }) {
  const { t } = useI18n();
  const fetcher = useFetcher<CredentialsResult>();
  const shopify = useAppBridge();
  const result = fetcher.data && "fieldErrors" in fetcher.data ? fetcher.data : null;
  const saved = fetcher.data && fetcher.data.ok && "message" in fetcher.data ? fetcher.data : null;
  const [advanced, setAdvanced] = useState(Boolean(connection.apiUrl || connection.authUrl || connection.rateUrl));
  // Write-only: once the service accepted it, the secret leaves the page too.
  const [secret, setSecret] = useState("");
  useEffect(() => {
    if (saved && fetcher.state === "idle") {
      setSecret("");
      shopify.toast.show(t(saved.message.key));
    }
  }, [saved, fetcher.state, shopify, t]);
  const errors = result?.fieldErrors ?? {};
  return (
    <Section title={t("creds.title")}>
      {result?.formError ? (
        <Notice tone="critical" title={t("creds.notSaved")}>
          <p>{t(result.formError.key, result.formError.params)}</p>
        </Notice>
      ) : null}
      {saved?.warning ? <Notice tone="warning">{t(saved.warning.key)}</Notice> : null}
      <fetcher.Form method="post" aria-label={t("creds.title")}>
        <input type="hidden" name="intent" value="credentials" />
        <FormLayout>
          <TextInput
            name="customerKey"
            label={t("creds.customerKey")}
            defaultValue={connection.customerKey ?? ""}
            error={errors.customerKey}
          />
          <TextInput
            name="clientId"
            label={t("creds.clientId")}
            defaultValue={connection.clientId ?? ""}
            error={errors.clientId}
          />
          <TextInput
            name="clientSecret"
            type="password"
            autoComplete="new-password"
            label={t("creds.clientSecret")}
            placeholder={connection.clientSecretMask ?? ""}
            helpText={
              connection.clientSecretMask
                ? t("creds.clientSecret.help", { masked: connection.clientSecretMask })
                : t("creds.clientSecret.helpNew")
            }
            error={errors.clientSecret}
            value={secret}
            onChange={setSecret}
          />
          <Button
            variant="plain"
            disclosure={advanced ? "up" : "down"}
            onClick={() => setAdvanced(!advanced)}
            ariaExpanded={advanced}
            ariaControls="service-addresses"
          >
            {t("creds.advanced")}
          </Button>
          {/* Hidden, not removed: closed, the fields still post what they hold. */}
          <div id="service-addresses" hidden={!advanced}>
            <FormLayout>
              <TextInput
                name="apiUrl"
                type="url"
                label={t("creds.apiUrl")}
                defaultValue={connection.apiUrl ?? ""}
                helpText={t("creds.url.help", { url: connection.defaults.apiUrl })}
                error={errors.apiUrl}
              />
              <TextInput
                name="authUrl"
                type="url"
                label={t("creds.authUrl")}
                defaultValue={connection.authUrl ?? ""}
                helpText={t("creds.url.help", { url: connection.defaults.authUrl })}
                error={errors.authUrl}
              />
              <TextInput
                name="rateUrl"
                type="url"
                label={t("creds.rateUrl")}
                defaultValue={connection.rateUrl ?? ""}
                helpText={t("creds.url.help", { url: connection.defaults.rateUrl })}
                error={errors.rateUrl}
              />
            </FormLayout>
          </div>
          <Button submit variant="primary" loading={fetcher.state !== "idle"}>
            {t("creds.submit")}
          </Button>
        </FormLayout>
      </fetcher.Form>
    </Section>
  );
}
