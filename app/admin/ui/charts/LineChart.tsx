import { Plot, SLOT, type Category } from "./Plot";

// A value per category on a fixed scale (average stars 1–5, NPS -100–100), joined where neighbours
// both have one; a category without a value leaves a gap, not a fall to zero.

export interface Point extends Category {
  value: number | null;
}

export function LineChart({
  summary,
  points,
  min,
  max,
  ticks,
  format,
  color = "#2c6ecb",
}: {
  summary: string;
  points: Point[];
  min: number;
  max: number;
  ticks: number[];
  format: (n: number) => string;
  color?: string;
}) {
  const y = (v: number) => 100 - ((v - min) / (max - min)) * 100;
  const x = (i: number) => i * SLOT + SLOT / 2;
  const segments: string[] = [];
  points.forEach((p, i) => {
    const prev = points[i - 1];
    if (p.value !== null && prev && prev.value !== null)
      segments.push(`M${x(i - 1)} ${y(prev.value)}L${x(i)} ${y(p.value)}`);
  });
  return (
    <Plot
      summary={summary}
      categories={points}
      ticks={ticks.map((v) => ({ at: (v - min) / (max - min), label: format(v) }))}
    >
      <path d={segments.join("")} fill="none" stroke={color} strokeWidth={2} vectorEffect="non-scaling-stroke" />
      {/* Dots as zero-length strokes with round caps: they stay round however the SVG is stretched. */}
      {points.map((p, i) =>
        p.value === null ? null : (
          <path
            key={p.key}
            d={`M${x(i)} ${y(p.value)}h0`}
            stroke={color}
            strokeWidth={7}
            strokeLinecap="round"
            vectorEffect="non-scaling-stroke"
          />
        ),
      )}
    </Plot>
  );
}
