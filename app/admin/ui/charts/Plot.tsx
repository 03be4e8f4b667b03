import type { ReactNode } from "react";

// The frame both charts draw in: a fixed height (nothing moves when it loads), value labels on the
// left and category labels below in HTML (text never stretches with the width), the marks in an SVG
// that stretches to the width. The labels are hidden from screen readers: the figure's table has them.

export const PLOT_HEIGHT = 160;
const AXIS_WIDTH = 44;
const LABEL_ROWS = 32;
/** The width of one category in the SVG's own units: the SVG is stretched to the real width. */
export const SLOT = 10;

export interface Category {
  key: string;
  /** Under the mark. */
  label: string;
  /** A second line (the year under January), or nothing. */
  sublabel?: string;
}

export function Plot(props: {
  summary: string;
  categories: Category[];
  ticks: { at: number; label: string }[];
  children: ReactNode;
}) {
  const n = Math.max(1, props.categories.length);
  return (
    <div style={{ position: "relative", height: PLOT_HEIGHT + LABEL_ROWS }}>
      <div aria-hidden style={{ position: "absolute", left: 0, top: 0, width: AXIS_WIDTH - 6, height: PLOT_HEIGHT }}>
        {props.ticks.map((tick) => (
          <span
            key={tick.at}
            style={{
              position: "absolute",
              right: 0,
              top: `${(1 - tick.at) * 100}%`,
              transform: "translateY(-50%)",
              fontSize: 11,
              lineHeight: 1,
              color: "var(--p-color-text-secondary, #616161)",
              whiteSpace: "nowrap",
            }}
          >
            {tick.label}
          </span>
        ))}
      </div>
      <svg
        role="img"
        aria-label={props.summary}
        viewBox={`0 0 ${n * SLOT} 100`}
        preserveAspectRatio="none"
        style={{
          position: "absolute",
          left: AXIS_WIDTH,
          top: 0,
          width: `calc(100% - ${AXIS_WIDTH}px)`,
          height: PLOT_HEIGHT,
          overflow: "visible",
        }}
      >
        <title>{props.summary}</title>
        {props.ticks.map((tick) => (
          <line
            key={tick.at}
            x1={0}
            x2={n * SLOT}
            y1={(1 - tick.at) * 100}
            y2={(1 - tick.at) * 100}
            stroke="#d4d4d4"
            strokeWidth={1}
            vectorEffect="non-scaling-stroke"
          />
        ))}
        {props.children}
      </svg>
      <div
        aria-hidden
        style={{
          position: "absolute",
          left: AXIS_WIDTH,
          right: 0,
          top: PLOT_HEIGHT + 4,
          display: "grid",
          gridTemplateColumns: `repeat(${n}, minmax(0, 1fr))`,
          fontSize: 11,
          lineHeight: "14px",
          color: "var(--p-color-text-secondary, #616161)",
          textAlign: "center",
        }}
      >
        {props.categories.map((c) => (
          <span key={c.key} style={{ overflow: "hidden", whiteSpace: "nowrap" }}>
            {c.label}
            {c.sublabel ? <br /> : null}
            {c.sublabel}
          </span>
        ))}
      </div>
    </div>
  );
}
