import { Link } from "@remix-run/react";
import { BlockStack, Box, InlineGrid, Text } from "@shopify/polaris";
import { useMemo } from "react";
import type { KeyFigures } from "../.server/admin";
import { useI18n } from "./i18n/context";
import type { MessageKey } from "../shared/i18n/en";
import { Section } from "./ui/page";
import { useResourceOf } from "./ui/resource";

// The home page's key figures (Built for Shopify asks a home page for useful information): each a
// link to the page that shows it. Loaded after the page shows, into tiles that keep their size
// while loading, when the service does not answer, and with data: no layout shift.

type Tile = { key: string; label: MessageKey; to: string; value: string | null; note: string | null };

/** `version`: the figures load again when it changes (the shop connected, a first sync ended). */
export function HomeFigures({ version }: { version: string }) {
  const { t, number, locale } = useI18n();
  const figuresRead = useResourceOf<KeyFigures>("/app/key-figures", version);
  const rating = useMemo(
    () => new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 }),
    [locale],
  );
  const data = figuresRead.data;
  // The app itself did not answer (not the service): said as "unavailable", never "loading" forever.
  const unreachable = !data && figuresRead.failed;
  const service = data?.connected ? data.service : null;
  const figures = service?.ok ? service.value : null;
  const since = data?.connected ? data.since : "";
  // What a tile says when its figure is missing: still loading, not connected, or the service silent.
  const missing = unreachable
    ? t("home.figures.unavailable")
    : !data
      ? null
      : !data.connected
        ? t("home.figures.notConnected")
        : t("home.figures.unavailable");
  const count = (n: number | undefined, zero: MessageKey) =>
    n === undefined ? { value: null, note: missing } : { value: number(n), note: n === 0 ? t(zero) : null };
  const tiles: Tile[] = [
    {
      key: "published",
      label: "home.figures.published",
      to: "/app/reviews?status=published",
      ...count(figures?.published, "home.figures.published.none"),
    },
    {
      key: "average",
      label: "home.figures.average",
      to: "/app/report",
      ...(figures
        ? figures.average === null
          ? { value: "–", note: t("home.figures.average.none") }
          : { value: t("home.figures.average.value", { rating: rating.format(figures.average) }), note: null }
        : { value: null, note: missing }),
    },
    {
      key: "recent",
      label: "home.figures.recent",
      to: `/app/reviews?status=all&from=${since}`,
      ...count(figures?.recent, "home.figures.recent.none"),
    },
    {
      key: "pending",
      label: "home.figures.pending",
      to: "/app/reviews?status=pending",
      ...count(figures?.pending, "home.figures.pending.none"),
    },
    {
      key: "questions",
      label: "home.figures.questions",
      to: "/app/questions?status=sent",
      ...count(figures?.questions, "home.figures.questions.none"),
    },
    {
      key: "orders",
      label: "home.figures.orders",
      to: "/app/sync",
      ...(data
        ? { value: number(data.ordersSent), note: data.ordersSent === 0 ? t("home.figures.orders.none") : null }
        : { value: null, note: null }),
    },
  ];
  const status = unreachable
    ? t("home.figures.unavailable")
    : !data
      ? t("home.figures.loading")
      : !data.connected
        ? t("home.figures.connectFirst")
        : service?.ok
          ? t("home.figures.fromService")
          : t("home.figures.serviceDown", { reason: service ? t(service.error.key, service.error.params) : "" });
  return (
    <Section title={t("home.figures.title")}>
      <div aria-busy={!data && !unreachable} aria-live="polite">
        <BlockStack gap="300">
          <Text as="p" tone={service && !service.ok ? "critical" : "subdued"}>
            {status}
          </Text>
          <InlineGrid columns={{ xs: 2, md: 3 }} gap="300">
            {tiles.map((tile) => (
              <Link
                key={tile.key}
                to={tile.to}
                data-figure={tile.key}
                style={{ color: "inherit", textDecoration: "none" }}
              >
                <Box padding="300" borderWidth="025" borderColor="border" borderRadius="200" minHeight="100%">
                  <BlockStack gap="100">
                    <Text as="span" variant="bodySm" tone="subdued">
                      {t(tile.label)}
                    </Text>
                    <Text as="span" variant="headingLg">
                      {tile.value ?? (data ? "–" : "…")}
                    </Text>
                    {/* Always a line, empty or not, so tiles keep their height as figures arrive. */}
                    <Text as="span" variant="bodySm" tone="subdued">
                      {tile.note ?? "\u00a0"}
                    </Text>
                  </BlockStack>
                </Box>
              </Link>
            ))}
          </InlineGrid>
        </BlockStack>
      </div>
    </Section>
  );
}
