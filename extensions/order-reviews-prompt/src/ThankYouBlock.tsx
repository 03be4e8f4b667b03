/** @jsxImportSource preact */
import "@shopify/ui-extensions/preact";
import { render } from "preact";
import { itemsForBlock, type ThankYouAnswer } from "./review-status";
import { useBackendAnswer } from "./use-backend";
import { RateRows } from "./RateRows";

// Thank-you page: tells the buyer they can rate on the order's status page once the order arrives
// (not that they will be asked: that depends on consent the page does not know); when it is already
// fulfilled (digital goods) and the buyer is logged in, offers the Rate buttons now.

export default async () => {
  render(<ThankYouBlock />, document.body);
};

function ThankYouBlock() {
  const t = shopify.i18n.translate;
  const state = useBackendAnswer<ThankYouAnswer>(
    "/extensions/thank-you",
    shopify.orderConfirmation.value?.order.id ?? "",
    () => shopify.sessionToken.get(),
  );

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
        <RateRows items={toRate} t={t} />
      </s-stack>
    </s-section>
  );
}
