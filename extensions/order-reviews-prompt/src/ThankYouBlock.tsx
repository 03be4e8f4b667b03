/** @jsxImportSource preact */
import "@shopify/ui-extensions/preact";
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { compiledAppUrl, itemsForBlock, loadFromBackend, type Loaded, type ThankYouAnswer } from "./review-status";

// Thank-you page: tells the buyer they will be asked to rate once the order arrives; when it is
// already fulfilled (digital goods) and the buyer is logged in, offers the Rate buttons now.

export default async () => {
  render(<ThankYouBlock />, document.body);
};

function ThankYouBlock() {
  const t = shopify.i18n.translate;
  const [state, setState] = useState<Loaded<ThankYouAnswer> | null>(null);
  const orderId = shopify.orderConfirmation.value?.order.id ?? "";
  useEffect(() => {
    void loadFromBackend<ThankYouAnswer>({
      appUrl: compiledAppUrl(() => process.env.APP_URL),
      path: "/extensions/thank-you",
      order: orderId,
      getToken: () => shopify.sessionToken.get(),
      fetch,
    }).then(setState);
  }, [orderId]);

  // Whatever the backend says (or if it cannot be reached), the buyer learns how rating works.
  const answer = state?.kind === "loaded" ? state.data : { state: "later" as const };
  if (answer.state === "later") {
    return (
      <s-banner heading={t("thankYou.heading")} tone="info">
        <s-text>{t("thankYou.later")}</s-text>
      </s-banner>
    );
  }
  const { toRate } = itemsForBlock(answer.order);
  return (
    <s-section heading={t("thankYou.heading")}>
      <s-stack gap="base">
        <s-text>{t("thankYou.now")}</s-text>
        {toRate.map((item) => (
          <s-stack key={item.rate!.sku} direction="inline" gap="base" alignItems="center" justifyContent="space-between">
            <s-text>{item.title}</s-text>
            <s-button href={item.rate!.href} target="_blank" accessibilityLabel={t("rateLabel", { title: item.title })}>
              {t("rate")}
            </s-button>
          </s-stack>
        ))}
      </s-stack>
    </s-section>
  );
}
