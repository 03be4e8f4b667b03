import { Plot, SLOT, type Category } from "./Plot";
import { niceTop } from "../../../shared/stats/scale";

// Counts as columns from zero (reviews per month, answers per score).

export interface Column extends Category {
  value: number;
  /** Fill, 3:1 or more against white; the default is the admin's blue. */
  color?: string;
}

export function ColumnChart({
  summary,
  columns,
  format,
}: {
  summary: string;
  columns: Column[];
  format: (n: number) => string;
}) {
  const top = niceTop(Math.max(0, ...columns.map((c) => c.value)));
  const ticks = [0, 0.5, 1].map((at) => ({ at, label: format(top * at) }));
  return (
    <Plot summary={summary} categories={columns} ticks={ticks}>
      {columns.map((c, i) => {
        const h = (c.value / top) * 100;
        return (
          <rect
            key={c.key}
            x={i * SLOT + SLOT * 0.2}
            width={SLOT * 0.6}
            y={100 - h}
            height={h}
            fill={c.color ?? "#2c6ecb"}
          />
        );
      })}
    </Plot>
  );
}
