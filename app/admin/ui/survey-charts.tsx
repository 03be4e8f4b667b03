import { useI18n } from "../i18n/context";
import type { NpsMonth } from "../../shared/stats/nps";
import { monthLabel, yearOf } from "../../shared/stats/months";
import { ChartFigure } from "./charts/ChartFigure";
import { ColumnChart } from "./charts/ColumnChart";
import { LineChart } from "./charts/LineChart";

// The survey page's charts: how many answers gave each score, and the score month by month.

// Detractors red, passives dark amber, promoters green: each 3:1 or more against white.
const groupColor = (score: number) => (score >= 9 ? "#29845a" : score >= 7 ? "#8a6116" : "#c70a24");

export function ScoreDistribution({ histogram }: { histogram: number[] }) {
  const { t, number } = useI18n();
  const answers = histogram.reduce((a, b) => a + b, 0);
  const sum = (from: number, to: number) => histogram.slice(from, to + 1).reduce((a, b) => a + b, 0);
  const summary = t("surveys.distribution.summary", {
    count: answers,
    promoters: sum(9, 10),
    neutral: sum(7, 8),
    detractors: sum(0, 6),
  });
  return (
    <ChartFigure
      title={t("surveys.distribution")}
      table={{
        columns: [t("surveys.col.score"), t("surveys.col.answers")],
        rows: histogram.map((n, score) => [number(score), number(n)]),
      }}
    >
      <ColumnChart
        summary={summary}
        format={number}
        columns={histogram.map((value, score) => ({
          key: String(score),
          label: number(score),
          value,
          color: groupColor(score),
        }))}
      />
    </ChartFigure>
  );
}

export function NpsOverTime({ months }: { months: NpsMonth[] }) {
  const { t, number, locale } = useI18n();
  const answered = months.filter((m) => m.nps !== null);
  const summary = answered.length
    ? t("surveys.overTime.summary", {
        from: monthLabel(months[0]!.month, locale, "long"),
        to: monthLabel(months.at(-1)!.month, locale, "long"),
        first: number(answered[0]!.nps!),
        last: number(answered.at(-1)!.nps!),
      })
    : t("surveys.overTime.none");
  return (
    <ChartFigure
      title={t("surveys.overTime")}
      table={{
        columns: [t("charts.month"), t("surveys.col.answers"), t("surveys.nps")],
        rows: months.map((m) => [
          monthLabel(m.month, locale, "long"),
          number(m.answers),
          m.nps === null ? "–" : number(m.nps),
        ]),
      }}
    >
      <LineChart
        summary={summary}
        min={-100}
        max={100}
        ticks={[-100, 0, 100]}
        format={number}
        color="#2c6ecb"
        points={months.map((m, i) => ({
          key: m.month,
          label: monthLabel(m.month, locale, "short"),
          sublabel: i === 0 || m.month.endsWith("-01") ? String(yearOf(m.month)) : undefined,
          value: m.nps,
        }))}
      />
    </ChartFigure>
  );
}
