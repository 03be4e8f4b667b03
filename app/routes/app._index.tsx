import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Link, useFetcher, useLoaderData } from "@remix-run/react";
import { BlockStack, Box, Button, FormLayout, InlineStack, Text } from "@shopify/polaris";
import { useAppBridge } from "@shopify/app-bridge-react";
import { useEffect, useState } from "react";
import { authenticate } from "../shopify.server";
import { appContext } from "../.server/context.server";
import { confirmStep, dismissOnboarding, onboardingState } from "../.server/admin/onboarding";
import { saveCredentials, type CredentialsResult } from "../.server/admin/credentials";
import { AdminPage, Section, StatusBadge, TextInput } from "../admin/ui/page";
import { Notice } from "../admin/ui/feedback";
import { usePollWhile } from "../admin/ui/poll";
import { useThemeSetup, type ThemeReading } from "../admin/ui/theme-setup";
import { useI18n } from "../admin/i18n/context";
import { settingValueKey } from "../admin/setting-words";
import { HomeFigures } from "../admin/home-figures";
import { THEME_PARTS, themeSetupDone, type ThemePart } from "../admin/theme-blocks";

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
    dismissed: state.dismissed,
  };
};

export type HomeAction =
  | CredentialsResult
  | { ok: true; confirmed: "policy" | "theme" }
  | { ok: true; dismissed: boolean }
  | { ok: false; invalid: true };

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
  if (intent === "dismiss" || intent === "restore") {
    await dismissOnboarding(ctx, session.shop, intent === "dismiss");
    return { ok: true, dismissed: intent === "dismiss" };
  }
  return { ok: false, invalid: true };
};

type Data = ReturnType<typeof useLoaderData<typeof loader>>;
type Steps = Data["steps"];

function Step(props: { n: number; title: string; done: boolean | null; children: React.ReactNode }) {
  const { t } = useI18n();
  return (
    <Box paddingBlock="200" borderBlockStartWidth="025" borderColor="border-secondary">
      <BlockStack gap="200">
        <InlineStack gap="200" blockAlign="center">
          <Text as="h3" variant="headingSm">
            {props.n}. {props.title}
          </Text>
          {props.done === null ? (
            <StatusBadge>{t("home.theme.checking")}</StatusBadge>
          ) : (
            <StatusBadge tone={props.done ? "success" : "attention"}>
              {props.done ? t("home.step.done") : t("home.step.todo")}
            </StatusBadge>
          )}
        </InlineStack>
        {props.children}
      </BlockStack>
    </Box>
  );
}

/** Whether the theme step is done: App Bridge's answer when there is one, else what the shop recorded. */
function themeDone(steps: Steps, reading: ThemeReading): boolean {
  return reading.state === "read" ? themeSetupDone(reading.setup) : steps.theme.done;
}

const PART_LINK: Record<ThemePart, keyof Steps["theme"]["links"]> = {
  starRating: "starRating",
  reviews: "reviews",
  embed: "embed",
  orderReviews: "orderReviews",
};
const PART_ACTION = {
  starRating: "home.step.theme.addRating",
  reviews: "home.step.theme.addReviews",
  embed: "home.step.theme.embed",
  orderReviews: "home.step.theme.addOrderReviews",
} as const;

function ThemeStep({ steps, reading }: { steps: Steps; reading: ThemeReading }) {
  const { t } = useI18n();
  const fetcher = useFetcher<HomeAction>();
  const done = themeDone(steps, reading);
  const text =
    reading.state === "pending"
      ? t("home.step.theme.checking")
      : reading.state === "read"
        ? done
          ? t("home.step.theme.on")
          : t("home.step.theme.off")
        : done
          ? t("home.step.theme.done")
          : t("home.step.theme.todo");
  return (
    <Step n={5} title={t("home.step.theme")} done={reading.state === "pending" ? null : done}>
      <Text as="p">{text}</Text>
      {/* One row per block: its state (while App Bridge answers, "checking" in the same place) and the theme editor
         link. */}
      <ul aria-label={t("home.step.theme")} style={{ listStyle: "none", margin: 0, padding: 0 }}>
        {THEME_PARTS.map((part) => (
          <li key={part}>
            <Box paddingBlock="100">
              <InlineStack gap="200" blockAlign="center" wrap>
                <Text as="span">{t(`home.theme.part.${part}`)}</Text>
                {reading.state === "unknown" ? null : reading.state === "pending" ? (
                  <StatusBadge>{t("home.theme.checking")}</StatusBadge>
                ) : reading.setup[part] ? (
                  <StatusBadge tone="success">{t("home.theme.on")}</StatusBadge>
                ) : (
                  <StatusBadge tone="attention">{t("home.theme.off")}</StatusBadge>
                )}
                <Button url={steps.theme.links[PART_LINK[part]]} external variant="plain">
                  {t(PART_ACTION[part])}
                </Button>
              </InlineStack>
            </Box>
          </li>
        ))}
      </ul>
      {reading.state === "unknown" && !done ? (
        <fetcher.Form method="post">
          <input type="hidden" name="intent" value="confirm-theme" />
          <Button submit loading={fetcher.state !== "idle"}>
            {t("home.step.theme.markDone")}
          </Button>
        </fetcher.Form>
      ) : null}
    </Step>
  );
}

function Checklist({ steps, reading }: { steps: Steps; reading: ThemeReading }) {
  const { t, number } = useI18n();
  // The Settings page's words for the rule, so the merchant confirms what is set.
  const ruleWords = (channel: string, value: string) => {
    const key = settingValueKey(`orders.optOut.${channel}`, value);
    return key ? t(key) : value;
  };
  const fetcher = useFetcher<HomeAction>();
  const dismiss = useFetcher<HomeAction>();
  const { done, total } = progress(steps, reading);
  return (
    <Section
      title={t("home.checklist.title")}
      actions={
        <InlineStack gap="300" blockAlign="center">
          <Text as="span" tone="subdued">
            {t("home.checklist.progress", { done, total })}
          </Text>
          <dismiss.Form method="post">
            <input type="hidden" name="intent" value="dismiss" />
            <Button submit variant="plain" loading={dismiss.state !== "idle"}>
              {t("home.checklist.dismiss")}
            </Button>
          </dismiss.Form>
        </InlineStack>
      }
    >
      <Step n={1} title={t("home.step.credentials")} done={steps.credentials.done}>
        <Text as="p">
          {steps.credentials.done
            ? t("home.step.credentials.done", { customer: steps.credentials.customerKey ?? "" })
            : t("home.step.credentials.todo")}
        </Text>
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
              <Text as="span">
                {t("home.policy.line", {
                  channel: t(`home.policy.channel.${c}`),
                  rule: ruleWords(c, steps.policy.optOut[c]),
                })}
              </Text>
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
      <ThemeStep steps={steps} reading={reading} />
    </Section>
  );
}

function progress(steps: Steps, reading: ThemeReading) {
  const server = [steps.credentials.done, steps.catalog.done, steps.orders.done, steps.policy.done];
  const flags = [...server, themeDone(steps, reading)];
  return { done: flags.filter(Boolean).length, total: flags.length };
}

/** The guide as one line: hidden by the merchant (a button brings it back), or finished (it can be opened again). */
function ChecklistLine({
  steps,
  reading,
  dismissed,
  onOpen,
}: {
  steps: Steps;
  reading: ThemeReading;
  dismissed: boolean;
  onOpen: () => void;
}) {
  const { t } = useI18n();
  const restore = useFetcher<HomeAction>();
  const { done, total } = progress(steps, reading);
  return (
    <Section>
      <InlineStack align="space-between" blockAlign="center" gap="200">
        <Text as="p">
          {dismissed ? t("home.checklist.hidden", { done, total }) : t("home.checklist.complete", { total })}
        </Text>
        {dismissed ? (
          <restore.Form method="post">
            <input type="hidden" name="intent" value="restore" />
            <Button submit variant="plain" loading={restore.state !== "idle"}>
              {t("home.checklist.restore")}
            </Button>
          </restore.Form>
        ) : (
          <Button variant="plain" onClick={onOpen}>
            {t("home.checklist.open")}
          </Button>
        )}
      </InlineStack>
    </Section>
  );
}

function SetupGuide({ steps, dismissed }: { steps: Steps; dismissed: boolean }) {
  const reading = useThemeSetup();
  const seen = useFetcher<HomeAction>();
  const [opened, setOpened] = useState(false);
  const live = reading.state === "read" && themeSetupDone(reading.setup);
  // App Bridge sees the blocks on: the shop remembers it, so a finished guide loads collapsed.
  useEffect(() => {
    if (live && !steps.theme.done && seen.state === "idle" && !seen.data)
      seen.submit({ intent: "confirm-theme" }, { method: "post" });
  }, [live, steps.theme.done, seen]);
  // Collapsed by what the shop recorded, so a finished guide is one line from the first paint. When
  // App Bridge's answer is what finishes it, the guide stays open in this view (the step turns done
  // in place) instead of folding away under the merchant after the page showed.
  const recordedDone =
    steps.credentials.done && steps.catalog.done && steps.orders.done && steps.policy.done && steps.theme.done;
  const finishedHere = seen.state !== "idle" || Boolean(seen.data);
  if (dismissed) return <ChecklistLine steps={steps} reading={reading} dismissed onOpen={() => {}} />;
  if (recordedDone && !opened && !finishedHere)
    return <ChecklistLine steps={steps} reading={reading} dismissed={false} onOpen={() => setOpened(true)} />;
  return <Checklist steps={steps} reading={reading} />;
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

export default function Home() {
  const data = useLoaderData<typeof loader>();
  const { t } = useI18n();
  const { catalog, orders } = data.steps;
  // A sync is under way, or about to start after connecting: follow it.
  usePollWhile(Boolean(catalog.running || orders.running || (data.connected && (!catalog.done || !orders.done))), 1000);
  return (
    <AdminPage title={t("home.title")}>
      <SetupGuide steps={data.steps} dismissed={data.dismissed} />
      <HomeFigures version={`${data.connected}:${catalog.done}:${orders.done}`} />
      <CredentialsForm connection={data.connection} />
    </AdminPage>
  );
}
