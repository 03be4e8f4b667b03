import { Button, InlineStack, Text } from "@shopify/polaris";
import { useId, useState, type CSSProperties, type ReactNode } from "react";
import { useI18n } from "../../i18n/context";

// A chart with its numbers as a table: screen readers always have the table (visually hidden until
// someone asks to see it), the picture has a one-sentence summary.

const hidden: CSSProperties = {
  position: "absolute",
  width: 1,
  height: 1,
  overflow: "hidden",
  clip: "rect(0 0 0 0)",
  clipPath: "inset(50%)",
  whiteSpace: "nowrap",
};
const cell: CSSProperties = { padding: "4px 8px", borderBottom: "1px solid var(--p-color-border-secondary, #ebebeb)" };

export interface ChartTable {
  columns: string[];
  /** The first cell names the row; the others are numbers (right-aligned). */
  rows: string[][];
}

export function ChartFigure({
  title,
  table,
  children,
  note,
}: {
  title: string;
  table: ChartTable;
  children: ReactNode;
  note?: ReactNode;
}) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  const tableId = useId();
  return (
    <figure style={{ margin: 0, display: "grid", gap: 8 }}>
      <InlineStack align="space-between" blockAlign="center" gap="200">
        <figcaption>
          <Text as="h3" variant="headingSm">
            {title}
          </Text>
        </figcaption>
        <Button variant="plain" onClick={() => setOpen((o) => !o)} aria-expanded={open} aria-controls={tableId}>
          {open ? t("charts.hideTable") : t("charts.showTable")}
        </Button>
      </InlineStack>
      {children}
      {note}
      <div id={tableId} style={open ? { overflowX: "auto" } : hidden}>
        <table style={{ borderCollapse: "collapse", width: "100%", fontVariantNumeric: "tabular-nums" }}>
          <caption style={hidden}>{title}</caption>
          <thead>
            <tr>
              {table.columns.map((c, i) => (
                <th key={i} scope="col" style={{ ...cell, textAlign: i ? "right" : "left" }}>
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.rows.map((row, r) => (
              <tr key={r}>
                {row.map((v, i) =>
                  i ? (
                    <td key={i} style={{ ...cell, textAlign: "right" }}>
                      {v}
                    </td>
                  ) : (
                    <th key={i} scope="row" style={{ ...cell, textAlign: "left", fontWeight: "normal" }}>
                      {v}
                    </th>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
