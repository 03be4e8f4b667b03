import { BlockStack, Text } from "@shopify/polaris";
import { useI18n } from "../i18n/context";
import { monthLabel, yearOf } from "../../shared/stats/months";
import type { TrendMonth } from "../../shared/stats/ratings";
import { ChartFigure } from "./charts/ChartFigure";
import { ColumnChart } from "./charts/ColumnChart";
import { LineChart } from "./charts/LineChart";

// The report page's charts: reviews and average rating month by month, and the stars given.

export function ReviewsOverTime({ months, capped }: { months: TrendMonth[]; capped: boolean }) {
  const { t, number, locale } = useI18n();
  const stars = (v: number) => number(Math.round(v * 10) / 10);
  const from = monthLabel(months[0]!.month, locale, "long");
  const to = monthLabel(months.at(-1)!.month, locale, "long");
  const total = months.reduce((a, m) => a + m.reviews, 0);
  const busiest = months.reduce((a, m) => (m.reviews > a.reviews ? m : a), months[0]!);
  const rated = months.filter((m) => m.average !== null).map((m) => m.average!);
  const categories = months.map((m, i) => ({
    key: m.month,
    label: monthLabel(m.month, locale, "short"),
    sublabel: i === 0 || m.month.endsWith("-01") ? String(yearOf(m.month)) : undefined,
  }));
  return (
    <ChartFigure
      title={t("report.trends")}
      table={{
        columns: [t("charts.month"), t("report.col.reviews"), t("report.col.rating")],
        rows: months.map((m) => [
          monthLabel(m.month, locale, "long"),
          number(m.reviews),
          m.average === null ? "–" : stars(m.average),
        ]),
      }}
      note={
        capped ? (
          <Text as="p" variant="bodySm" tone="subdued">
            {t("report.trends.capped")}
          </Text>
        ) : null
      }
    >
      <BlockStack gap="200">
        <Text as="p" variant="bodySm" tone="subdued">
          {t("report.trends.volume")}
        </Text>
        <ColumnChart
          summary={t("report.trends.volume.summary", {
            count: total,
            from,
            to,
            month: monthLabel(busiest.month, locale, "long"),
            most: busiest.reviews,
          })}
          format={number}
          columns={categories.map((c, i) => ({ ...c, value: months[i]!.reviews }))}
        />
        <Text as="p" variant="bodySm" tone="subdued">
          {t("report.trends.average")}
        </Text>
        <LineChart
          summary={
            rated.length
              ? t("report.trends.average.summary", {
                  from,
                  to,
                  low: stars(Math.min(...rated)),
                  high: stars(Math.max(...rated)),
                })
              : t("report.trends.none")
          }
          min={1}
          max={5}
          ticks={[1, 3, 5]}
          format={number}
          color="#8051d6"
          points={categories.map((c, i) => ({ ...c, value: months[i]!.average }))}
        />
      </BlockStack>
    </ChartFigure>
  );
}

export function StarDistribution({ stars, average }: { stars: number[]; average: number | null }) {
  const { t, number } = useI18n();
  const count = stars.reduce((a, b) => a + b, 0);
  const label = (n: number) => t("report.stars.n", { stars: n });
  const summary = t("report.stars.summary", {
    count,
    average: average === null ? "–" : number(Math.round(average * 10) / 10),
    list: [5, 4, 3, 2, 1].map((n) => `${label(n)}: ${number(stars[n - 1]!)}`).join(", "),
  });
  return (
    <ChartFigure
      title={t("report.stars")}
      table={{
        columns: [t("report.stars.col"), t("report.col.reviews")],
        rows: [5, 4, 3, 2, 1].map((n) => [label(n), number(stars[n - 1]!)]),
      }}
    >
      <ColumnChart
        summary={summary}
        format={number}
        columns={[1, 2, 3, 4, 5].map((n) => ({
          key: String(n),
          label: label(n),
          value: stars[n - 1]!,
          color: n >= 4 ? "#29845a" : n === 3 ? "#8a6116" : "#c70a24",
        }))}
      />
    </ChartFigure>
  );
}
