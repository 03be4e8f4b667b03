/** @jsxImportSource preact */
import type { StatusItem } from "./review-status";

/** One row per product still to rate: its title and a Rate button to the service's rating page (a new tab). */
export function RateRows({
  items,
  t,
}: {
  items: StatusItem[];
  t: (key: string, options?: Record<string, string | number>) => string;
}) {
  return (
    <>
      {items.map((item) => (
        <s-stack key={item.rate!.sku} direction="inline" gap="base" alignItems="center" justifyContent="space-between">
          <s-text>{item.title}</s-text>
          <s-button href={item.rate!.href} target="_blank" accessibilityLabel={t("rateLabel", { title: item.title })}>
            {t("rate")}
          </s-button>
        </s-stack>
      ))}
    </>
  );
}
