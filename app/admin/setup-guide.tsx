import { Link, useFetcher } from "@remix-run/react";
import { BlockStack, Box, Button, InlineStack, Text } from "@shopify/polaris";
import { useEffect, useState } from "react";
import type { OnboardingState } from "../.server/admin";
import { useI18n } from "./i18n/context";
import { settingValueKey } from "../shared/setting-words";
import { THEME_PARTS, themeSetupDone, type ThemePart } from "../shared/theme-blocks";
import { Section, StatusBadge } from "./ui/page";
import { useThemeSetup, type ThemeReading } from "./ui/theme-setup";

// The home page's setup guide: the checklist of connecting, syncing, the review-request policy and
// the theme blocks, read from what the shop recorded and, for the theme, from App Bridge. It posts
// its confirmations to the home page's action.

/** What the home page's action answers the guide's posts. */
export type SetupGuideAction =
  { ok: true; confirmed: "policy" | "theme" } | { ok: true; dismissed: boolean } | { ok: false; invalid: true };

type Steps = OnboardingState["steps"];

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
  const fetcher = useFetcher<SetupGuideAction>();
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
  const fetcher = useFetcher<SetupGuideAction>();
  const dismiss = useFetcher<SetupGuideAction>();
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
        <Text as="p">{steps.credentials.done ? t("home.step.credentials.done") : t("home.step.credentials.todo")}</Text>
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
  const restore = useFetcher<SetupGuideAction>();
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

export function SetupGuide({ steps, dismissed }: { steps: Steps; dismissed: boolean }) {
  const reading = useThemeSetup();
  const seen = useFetcher<SetupGuideAction>();
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
