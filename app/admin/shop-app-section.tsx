import { Badge, BlockStack, Box, InlineGrid, InlineStack, List, Text } from "@shopify/polaris";
import type { ShopAppStatus } from "../.server/shopapp";
import { useI18n } from "./i18n/context";
import type { MessageKey } from "../shared/i18n/en";
import { Section } from "./ui/page";

// The Shop app section of the "Google Shopping & Shop app" page: whether the shop is in Shopify's
// product review program, and of its published reviews how many are in Shopify's standard format,
// how many were left out and why. It only shows what the page's loader read with shopAppStatus()
// (app/.server/shopapp/status.ts): numbers, never a reviewer.

const PROGRAM: Record<ShopAppStatus["program"], { tone: "success" | "attention" | "info"; label: MessageKey }> = {
  enabled: { tone: "success", label: "shopApp.program.enabled" },
  "not-granted": { tone: "attention", label: "shopApp.program.notGranted" },
  unknown: { tone: "info", label: "shopApp.program.unknown" },
};

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Box padding="300" background="bg-surface-secondary" borderRadius="200">
      <BlockStack gap="100">
        <Text as="p" variant="bodySm" tone="subdued">
          {label}
        </Text>
        <Text as="p" variant="headingLg">
          {value}
        </Text>
      </BlockStack>
    </Box>
  );
}

export function ShopAppSection({ status }: { status: ShopAppStatus }) {
  const { t, number, date } = useI18n();
  const program = PROGRAM[status.program];
  const leftOut = status.leftOut.reduce((a, r) => a + r.count, 0);
  // Most reviews left out are no fault at all: they came without an order. Said before the list.
  const noOrder = status.leftOut.find((r) => r.reason === "no_order")?.count ?? 0;
  return (
    <Section title={t("shopApp.title")}>
      <BlockStack gap="300">
        <Text as="p">{t("shopApp.intro")}</Text>
        <InlineStack gap="200" blockAlign="center">
          <Badge tone={program.tone}>{t(program.label)}</Badge>
          {status.checkedAt ? (
            <Text as="span" variant="bodySm" tone="subdued">
              {t("shopApp.checkedAt", { date: date(status.checkedAt) })}
            </Text>
          ) : null}
        </InlineStack>
        {status.program === "not-granted" ? <Text as="p">{t("shopApp.notGranted.help")}</Text> : null}
        {status.program === "enabled" ? (
          <>
            {status.backfill !== "done" ? <Text as="p">{t("shopApp.backfill.inProgress")}</Text> : null}
            <InlineGrid columns={{ xs: 1, sm: 3 }} gap="300">
              <Figure label={t("shopApp.figure.eligible")} value={number(status.eligible)} />
              <Figure label={t("shopApp.figure.syndicated")} value={number(status.syndicated)} />
              <Figure label={t("shopApp.figure.leftOut")} value={number(leftOut)} />
            </InlineGrid>
            {status.inShopify !== null ? (
              <Text as="p" variant="bodySm" tone="subdued">
                {t("shopApp.figure.inShopify", { count: status.inShopify })}
              </Text>
            ) : null}
            {noOrder * 2 > leftOut ? (
              <Text as="p">{t("shopApp.leftOut.mostNoOrder", { count: leftOut, noOrder: number(noOrder) })}</Text>
            ) : null}
            <BlockStack gap="200">
              <Text as="h3" variant="headingSm">
                {t("shopApp.leftOut.title")}
              </Text>
              {status.leftOut.length === 0 ? (
                <Text as="p">{t("shopApp.leftOut.none")}</Text>
              ) : (
                <List>
                  {status.leftOut.map((r) => (
                    <List.Item key={r.reason}>
                      {t(`shopApp.reason.${r.reason}` as MessageKey)} — {t("shopApp.reason.count", { count: r.count })}
                    </List.Item>
                  ))}
                </List>
              )}
            </BlockStack>
          </>
        ) : null}
      </BlockStack>
    </Section>
  );
}
