/** @jsxImportSource preact */
import "@shopify/ui-extensions/preact";
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { loadCustomerReviews, pagesFor, rowsForBlock, type Loaded } from "./customer-reviews";

// A customer's page in the admin: the product reviews they wrote, newest first, a page at a time,
// each with its product, rating, moderation status and date. The text stays at the service (and in
// the app's Reviews page): a block is a glance, not a moderation queue.

export default async () => {
  render(<CustomerReviewsBlock />, document.body);
};

function CustomerReviewsBlock() {
  const t = shopify.i18n.translate;
  const customer = shopify.data.selected[0]?.id ?? "";
  const [page, setPage] = useState(1);
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<Loaded | null>(null);
  useEffect(() => {
    setState(null);
    void loadCustomerReviews({ customer, page, fetch: (url, init) => fetch(url, init) }).then(setState);
  }, [customer, page, attempt]);

  if (!state) {
    return (
      <s-admin-block heading={t("heading")} collapsedSummary={t("heading")}>
        <s-spinner accessibilityLabel={t("heading")} />
      </s-admin-block>
    );
  }
  if (state.kind === "unavailable") return null;
  if (state.kind === "failed") {
    return (
      <s-admin-block heading={t("heading")} collapsedSummary={t(`error.${state.error}`)}>
        <s-stack gap="base">
          <s-paragraph>{t(`error.${state.error}`)}</s-paragraph>
          {state.error === "try_later" ? (
            <s-button onClick={() => setAttempt((n) => n + 1)}>{t("retry")}</s-button>
          ) : null}
        </s-stack>
      </s-admin-block>
    );
  }
  const rows = rowsForBlock(state.data);
  const pages = pagesFor(state.data);
  const summary = rows.length ? t("summary", { count: rows.length }) : t("none");
  return (
    <s-admin-block heading={t("heading")} collapsedSummary={summary}>
      <s-stack gap="base">
        {!rows.length && page === 1 ? <s-paragraph>{t("none")}</s-paragraph> : null}
        {rows.map((row) => (
          <s-stack key={row.key} gap="small-200">
            <s-stack direction="inline" gap="base" justifyContent="space-between" alignItems="center">
              <s-text type="strong">{row.title ?? t("noTitle", { id: row.productId })}</s-text>
              <s-badge tone={row.tone}>{t(row.statusKey)}</s-badge>
            </s-stack>
            <s-stack direction="inline" gap="base" alignItems="center">
              <s-text accessibilityVisibility="hidden">{row.stars}</s-text>
              <s-text accessibilityVisibility="exclusive">{t("rating", { count: row.rating })}</s-text>
              {row.submittedAt ? (
                <s-text color="subdued">
                  {t("submitted", { date: shopify.i18n.formatDate(row.submittedAt, { dateStyle: "medium" }) })}
                </s-text>
              ) : null}
            </s-stack>
          </s-stack>
        ))}
        {state.data.unavailable ? (
          <s-paragraph color="subdued">{t("unavailable", { count: state.data.unavailable })}</s-paragraph>
        ) : null}
        {pages.previous || pages.next ? (
          <s-stack direction="inline" gap="base" alignItems="center">
            <s-button disabled={!pages.previous} onClick={() => pages.previous && setPage(pages.previous)}>
              {t("previous")}
            </s-button>
            <s-text>{t("page", { page: state.data.page })}</s-text>
            <s-button disabled={!pages.next} onClick={() => pages.next && setPage(pages.next)}>
              {t("next")}
            </s-button>
          </s-stack>
        ) : null}
      </s-stack>
    </s-admin-block>
  );
}
