/** @jsxImportSource preact */
import "@shopify/ui-extensions/preact";
import { render } from "preact";
import { itemsForBlock, starsText, type StatusOrder } from "./review-status";
import { useBackendAnswer } from "./use-backend";
import { RateRows } from "./RateRows";

// New customer accounts, order status page: the order's products with what the buyer rated and a
// Rate button for the others (the service's rating page, in a new tab: extensions cannot frame it).

export default async () => {
  render(<OrderStatusBlock />, document.body);
};

function OrderStatusBlock() {
  const t = shopify.i18n.translate;
  const state = useBackendAnswer<{ order: StatusOrder | null }>(
    "/extensions/order-status",
    shopify.order.value?.id ?? "",
    () => shopify.sessionToken.get(),
  );

  if (!state) return <s-skeleton-paragraph />;
  if (state.kind !== "loaded" || !state.data.order) return null;
  const { toRate, waiting, rated } = itemsForBlock(state.data.order);
  if (!toRate.length && !waiting.length && !rated.length) return null;
  return (
    <s-section heading={t("orderStatus.heading")}>
      <s-stack gap="base">
        <s-text>
          {toRate.length
            ? t("orderStatus.toRate", { count: toRate.length })
            : waiting.length
              ? t("orderStatus.waiting")
              : t("orderStatus.allRated")}
        </s-text>
        <RateRows items={toRate} t={t} />
        {rated.map((item) => (
          <s-stack
            key={`rated-${item.sku}`}
            direction="inline"
            gap="base"
            alignItems="center"
            justifyContent="space-between"
          >
            <s-text>{item.title}</s-text>
            <s-text color="subdued" accessibilityVisibility="hidden">
              {starsText(item.review?.rating ?? 0)}
            </s-text>
            <s-text accessibilityVisibility="exclusive">{t("ratedLabel", { count: item.review?.rating ?? 0 })}</s-text>
          </s-stack>
        ))}
      </s-stack>
    </s-section>
  );
}
