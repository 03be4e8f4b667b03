import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Link, useFetcher, useLoaderData } from "@remix-run/react";
import { BlockStack, Box, Button, FormLayout, InlineStack, Text } from "@shopify/polaris";
import { useAppBridge } from "@shopify/app-bridge-react";
import { useEffect, useState } from "react";
import { authenticate } from "../shopify.server";
import { appContext } from "../.server/context.server";
import { confirmStep, onboardingState } from "../.server/admin/onboarding";
import { saveCredentials, type CredentialsResult } from "../.server/admin/credentials";
import { AdminPage, Section, StatusBadge, TextInput } from "../admin/ui/page";
import { Notice } from "../admin/ui/feedback";
import { usePollWhile } from "../admin/ui/poll";
import { useI18n } from "../admin/i18n/context";
import { settingValueKey } from "../admin/setting-words";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const state = await onboardingState(appContext(), session.shop, process.env.SHOPIFY_API_KEY || "");
  return {
    // Kept flat for the page and for the tenant isolation test; never the secret, only its mask.
    domain: state.domain,
    connected: state.connection.connected,
    customerKey: state.connection.customerKey,
    clientId: state.connection.clientId,
    clientSecret: state.connection.clientSecretMask,
    connection: state.connection,
    steps: state.steps,
  };
};

export type HomeAction = CredentialsResult | { ok: true; confirmed: "policy" | "theme" } | { ok: false; invalid: true };

export const action = async ({ request }: ActionFunctionArgs): Promise<HomeAction> => {
  const { session } = await authenticate.admin(request);
  const form = await request.formData();
  const intent = form.get("intent");
  const ctx = appContext();
  if (intent === "credentials") return saveCredentials(ctx, session.shop, form);
  if (intent === "confirm-policy" || intent === "confirm-theme") {
    const step = intent === "confirm-policy" ? "policy" : "theme";
    await confirmStep(ctx, session.shop, step);
    return { ok: true, confirmed: step };
  }
  return { ok: false, invalid: true };
};

type Data = ReturnType<typeof useLoaderData<typeof loader>>;

function Step(props: { n: number; title: string; done: boolean; children: React.ReactNode }) {
  const { t } = useI18n();
  return (
    <Box paddingBlock="200" borderBlockStartWidth="025" borderColor="border-secondary">
      <BlockStack gap="200">
        <InlineStack gap="200" blockAlign="center">
          <Text as="h3" variant="headingSm">
            {props.n}. {props.title}
          </Text>
          <StatusBadge tone={props.done ? "success" : "attention"}>{props.done ? t("home.step.done") : t("home.step.todo")}</StatusBadge>
        </InlineStack>
        {props.children}
      </BlockStack>
    </Box>
  );
}


function Checklist({ steps }: { steps: Data["steps"] }) {
  const { t, number } = useI18n();
  // The Settings page's words for the rule, so the merchant confirms what is set.
  const ruleWords = (channel: string, value: string) => {
    const key = settingValueKey(`orders.optOut.${channel}`, value);
    return key ? t(key) : value;
  };
  const fetcher = useFetcher<HomeAction>();
  const done = Object.values(steps).filter((s) => s.done).length;
  const total = Object.keys(steps).length;
  return (
    <Section title={t("home.checklist.title")} actions={<Text as="span" tone="subdued">{t("home.checklist.progress", { done, total })}</Text>}>
      <Step n={1} title={t("home.step.credentials")} done={steps.credentials.done}>
        <Text as="p">{steps.credentials.done ? t("home.step.credentials.done", { customer: steps.credentials.customerKey ?? "" }) : t("home.step.credentials.todo")}</Text>
      </Step>
      <Step n={2} title={t("home.step.catalog")} done={steps.catalog.done}>
        <Text as="p">
          {steps.catalog.running
            ? t("home.step.catalog.running", { read: steps.catalog.running.read })
            : steps.catalog.done
              ? t("home.step.catalog.done", { count: steps.catalog.synced })
              : t("home.step.catalog.todo")}{" "}
          <Link to="/app/sync">{t("nav.sync")}</Link>
        </Text>
      </Step>
      <Step n={3} title={t("home.step.orders")} done={steps.orders.done}>
        <Text as="p">
          {steps.orders.running
            ? t("home.step.orders.running", { read: steps.orders.running.read })
            : steps.orders.backfilled
              ? t("home.step.orders.done", { days: number(steps.orders.days) })
              : steps.orders.done
                ? t("home.step.orders.flowing", { count: steps.orders.sent })
                : t("home.step.orders.todo")}
        </Text>
      </Step>
      <Step n={4} title={t("home.step.policy")} done={steps.policy.done}>
        <ul aria-label={t("home.step.policy")}>
          {(["email", "sms", "whatsapp"] as const).map((c) => (
            <li key={c}>
              <Text as="span">{t("home.policy.line", { channel: t(`home.policy.channel.${c}`), rule: ruleWords(c, steps.policy.optOut[c]) })}</Text>
            </li>
          ))}
        </ul>
        <InlineStack gap="200" blockAlign="center">
          {steps.policy.done ? (
            <Text as="p">{t("home.step.policy.done")}</Text>
          ) : (
            <fetcher.Form method="post">
              <input type="hidden" name="intent" value="confirm-policy" />
              <Button submit loading={fetcher.state !== "idle" && fetcher.formData?.get("intent") === "confirm-policy"}>
                {t("home.step.policy.confirm")}
              </Button>
            </fetcher.Form>
          )}
          <Link to="/app/settings">{t("nav.settings")}</Link>
        </InlineStack>
      </Step>
      <Step n={5} title={t("home.step.theme")} done={steps.theme.done}>
        <Text as="p">{steps.theme.done ? t("home.step.theme.done") : t("home.step.theme.todo")}</Text>
        <InlineStack gap="200" wrap>
          <Button url={steps.theme.links.starRating} external>
            {t("home.step.theme.addRating")}
          </Button>
          <Button url={steps.theme.links.reviews} external>
            {t("home.step.theme.addReviews")}
          </Button>
          <Button url={steps.theme.links.embed} external>
            {t("home.step.theme.embed")}
          </Button>
          <Button url={steps.theme.links.orderReviews} external>
            {t("home.step.theme.addOrderReviews")}
          </Button>
          {steps.theme.done ? null : (
            <fetcher.Form method="post">
              <input type="hidden" name="intent" value="confirm-theme" />
              <Button submit variant="plain">
                {t("home.step.theme.markDone")}
              </Button>
            </fetcher.Form>
          )}
        </InlineStack>
      </Step>
    </Section>
  );
}

function CredentialsForm({ connection }: { connection: Data["connection"] }) {
  const { t } = useI18n();
  const fetcher = useFetcher<HomeAction>();
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
          <TextInput name="customerKey" label={t("creds.customerKey")} defaultValue={connection.customerKey ?? ""} error={errors.customerKey} />
          <TextInput name="clientId" label={t("creds.clientId")} defaultValue={connection.clientId ?? ""} error={errors.clientId} />
          <TextInput
            name="clientSecret"
            type="password"
            autoComplete="new-password"
            label={t("creds.clientSecret")}
            placeholder={connection.clientSecretMask ?? ""}
            helpText={connection.clientSecretMask ? t("creds.clientSecret.help", { masked: connection.clientSecretMask }) : t("creds.clientSecret.helpNew")}
            error={errors.clientSecret}
            value={secret}
            onChange={setSecret}
          />
          <Button variant="plain" disclosure={advanced ? "up" : "down"} onClick={() => setAdvanced(!advanced)} ariaExpanded={advanced} ariaControls="service-addresses">
            {t("creds.advanced")}
          </Button>
          {/* Hidden, not removed: closed, the fields still post what they hold. */}
          <div id="service-addresses" hidden={!advanced}>
            <FormLayout>
              <TextInput name="apiUrl" type="url" label={t("creds.apiUrl")} defaultValue={connection.apiUrl ?? ""} helpText={t("creds.url.help", { url: connection.defaults.apiUrl })} error={errors.apiUrl} />
              <TextInput name="authUrl" type="url" label={t("creds.authUrl")} defaultValue={connection.authUrl ?? ""} helpText={t("creds.url.help", { url: connection.defaults.authUrl })} error={errors.authUrl} />
              <TextInput name="rateUrl" type="url" label={t("creds.rateUrl")} defaultValue={connection.rateUrl ?? ""} helpText={t("creds.url.help", { url: connection.defaults.rateUrl })} error={errors.rateUrl} />
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

export default function Home() {
  const data = useLoaderData<typeof loader>();
  const { t } = useI18n();
  const { catalog, orders } = data.steps;
  // A sync is under way, or about to start after connecting: follow it.
  usePollWhile(Boolean(catalog.running || orders.running || (data.connected && (!catalog.done || !orders.done))), 1000);
  return (
    <AdminPage title={t("home.title")}>
      <Checklist steps={data.steps} />
      <CredentialsForm connection={data.connection} />
    </AdminPage>
  );
}
