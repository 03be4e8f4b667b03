import { BlockStack, Box, InlineStack, Modal, Spinner, Text, Thumbnail } from "@shopify/polaris";
import { useEffect, useState } from "react";
import type { ReviewRow } from "../.server/admin";
import type { CustomerReviewItem } from "../.server/customers";
import { useI18n } from "./i18n/context";
import type { MessageKey } from "../shared/i18n/en";
import type { UiMessage } from "../shared/messages";
import { ErrorNotice } from "./ui/feedback";

// One review opened from the moderation queue: its whole text, photos and video, attributes, the
// order it came with, and what else its writer reviewed in this store, with approve and reject.

type Buyer = { customer: boolean; reviews: CustomerReviewItem[]; more: boolean } | { error: UiMessage };

function useBuyerReviews(row: ReviewRow): Buyer | null {
  const [buyer, setBuyer] = useState<Buyer | null>(null);
  useEffect(() => {
    setBuyer(null);
    const q = new URLSearchParams({ review: row.id });
    if (row.userId) q.set("user", row.userId);
    if (row.order) q.set("order", row.order);
    const aborted = new AbortController();
    fetch(`/app/reviews/buyer?${q}`, { signal: aborted.signal })
      .then((res) => res.json() as Promise<Buyer>)
      .then(setBuyer)
      .catch(() => !aborted.signal.aborted && setBuyer({ error: { key: "error.unreachable" } }));
    return () => aborted.abort();
  }, [row.id, row.userId, row.order]);
  return buyer;
}

function Heading({ children }: { children: string }) {
  return (
    <Text as="h3" variant="headingSm">
      {children}
    </Text>
  );
}

function BuyerReviews({ buyer }: { buyer: Buyer | null }) {
  const { t, date } = useI18n();
  if (!buyer) return <Spinner size="small" accessibilityLabel={t("reviews.detail.loading")} />;
  if ("error" in buyer) return <ErrorNotice error={buyer.error} />;
  if (!buyer.customer) return <Text as="p">{t("reviews.detail.guest")}</Text>;
  if (!buyer.reviews.length) return <Text as="p">{t("reviews.detail.noOthers")}</Text>;
  return (
    <ul style={{ margin: 0, paddingInlineStart: 20 }}>
      {buyer.reviews.map((r) => (
        <li key={r.id}>
          {t("reviews.stars", { rating: r.rating })} · {r.product.title ?? t("reviews.detail.otherProduct")} ·{" "}
          {t(`reviews.status.${r.status}` as MessageKey)} · {date(r.submittedAt)}
        </li>
      ))}
    </ul>
  );
}

export function ReviewDetail({
  row,
  productTitle,
  busy,
  onModerate,
  onClose,
}: {
  row: ReviewRow;
  productTitle: string;
  busy: boolean;
  onModerate: (approved: boolean) => void;
  onClose: () => void;
}) {
  const { t, date } = useI18n();
  const buyer = useBuyerReviews(row);
  return (
    <Modal
      open
      onClose={onClose}
      title={t("reviews.detail.title", { name: row.name || t("reviews.detail.anonymous"), product: productTitle })}
      primaryAction={{
        content: t("reviews.approve"),
        onAction: () => onModerate(true),
        disabled: busy || row.status === "published",
      }}
      secondaryActions={[
        {
          content: t("reviews.reject"),
          destructive: true,
          onAction: () => onModerate(false),
          disabled: busy || row.status === "removed",
        },
      ]}
      footer={
        <Text as="span" variant="bodySm" tone="subdued">
          {t("reviews.keys.hint")}
        </Text>
      }
    >
      <Modal.Section>
        <BlockStack gap="400">
          <BlockStack gap="100">
            <Text as="p" variant="bodySm" tone="subdued">
              {t("reviews.stars", { rating: row.rating })} · {t(`reviews.status.${row.status}` as MessageKey)}
              {row.created ? ` · ${date(row.created)}` : ""}
              {row.verified ? ` · ${t("reviews.verified")}` : ""}
            </Text>
            <Text as="p" breakWord>
              {row.text || t("reviews.noText")}
            </Text>
          </BlockStack>
          {row.pictures.length || row.video ? (
            <BlockStack gap="200">
              <Heading>{t("reviews.media")}</Heading>
              <InlineStack gap="200" blockAlign="center">
                {row.pictures.map((url, i) => (
                  <a key={url} href={url} target="_blank" rel="noopener noreferrer">
                    <Thumbnail size="large" source={url} alt={t("reviews.photoAlt", { n: i + 1, name: row.name })} />
                  </a>
                ))}
              </InlineStack>
              {row.video ? (
                <video src={row.video} controls preload="metadata" style={{ maxWidth: "100%", maxHeight: 240 }}>
                  <a href={row.video}>{t("reviews.video")}</a>
                </video>
              ) : null}
            </BlockStack>
          ) : null}
          {row.attributes.length ? (
            <BlockStack gap="100">
              <Heading>{t("reviews.detail.attributes")}</Heading>
              {row.attributes.map((a) => (
                <Text as="p" key={a.title}>
                  {a.response !== null
                    ? `${a.title}: ${a.response}`
                    : t("reviews.detail.attribute", { title: a.title, value: a.value, max: a.max })}
                </Text>
              ))}
            </BlockStack>
          ) : null}
          <BlockStack gap="100">
            <Heading>{t("reviews.detail.order")}</Heading>
            <Text as="p">
              {row.order ? t("reviews.order", { order: row.orderName ?? row.order }) : t("reviews.detail.noOrder")}
            </Text>
          </BlockStack>
          {row.reply ? (
            <Box padding="200" background="bg-surface-secondary" borderRadius="200">
              <Text as="p" variant="bodySm">
                <b>{t("reviews.reply")}</b>: {row.reply.text}
              </Text>
            </Box>
          ) : null}
          <BlockStack gap="100">
            <Heading>{t("reviews.detail.others", { name: row.name || t("reviews.detail.anonymous") })}</Heading>
            <BuyerReviews buyer={buyer} />
          </BlockStack>
        </BlockStack>
      </Modal.Section>
    </Modal>
  );
}
