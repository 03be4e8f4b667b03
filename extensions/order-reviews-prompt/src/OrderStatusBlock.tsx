/** @jsxImportSource preact */
import "@shopify/ui-extensions/preact";
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { compiledAppUrl, itemsForBlock, loadFromBackend, starsText, type Loaded, type StatusOrder } from "./review-status";

// New customer accounts, order status page: the order's products with what the buyer rated and a
// Rate button for the others (the service's rating page, in a new tab: extensions cannot frame it).

export default async () => {
  render(<OrderStatusBlock />, document.body);
};

function OrderStatusBlock() {
  const t = shopify.i18n.translate;
  const [state, setState] = useState<Loaded<{ order: StatusOrder | null }> | null>(null);
  const orderId = shopify.order.value?.id ?? "";
  useEffect(() => {
    void loadFromBackend<{ order: StatusOrder | null }>({
      appUrl: compiledAppUrl(() => process.env.APP_URL),
      path: "/extensions/order-status",
      order: orderId,
      getToken: () => shopify.sessionToken.get(),
      fetch,
    }).then(setState);
  }, [orderId]);

  if (!state) return <s-skeleton-paragraph />;
  if (state.kind !== "loaded" || !state.data.order) return null;
  const { toRate, waiting, rated } = itemsForBlock(state.data.order);
  if (!toRate.length && !waiting.length && !rated.length) return null;
  return (
    <s-section heading={t("orderStatus.heading")}>
      <s-stack gap="base">
        <s-text>{toRate.length ? t("orderStatus.toRate", { count: toRate.length }) : waiting.length ? t("orderStatus.waiting") : t("orderStatus.allRated")}</s-text>
        {toRate.map((item) => (
          <s-stack key={item.rate!.sku} direction="inline" gap="base" alignItems="center" justifyContent="space-between">
            <s-text>{item.title}</s-text>
            <s-button href={item.rate!.href} target="_blank" accessibilityLabel={t("rateLabel", { title: item.title })}>
              {t("rate")}
            </s-button>
          </s-stack>
        ))}
        {rated.map((item) => (
          <s-stack key={`rated-${item.sku}`} direction="inline" gap="base" alignItems="center" justifyContent="space-between">
            <s-text>{item.title}</s-text>
            <s-text color="subdued" accessibilityVisibility="hidden">{starsText(item.review?.rating ?? 0)}</s-text>
            <s-text accessibilityVisibility="exclusive">{t("ratedLabel", { rating: item.review?.rating ?? 0 })}</s-text>
          </s-stack>
        ))}
      </s-stack>
    </s-section>
  );
}
