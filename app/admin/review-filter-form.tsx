import { Form } from "@remix-run/react";
import { Button, FormLayout, InlineGrid, InlineStack, Select, TextField } from "@shopify/polaris";
import { useState } from "react";
import { REVIEW_SORTS } from "./review-filters";
import { Section } from "./ui/page";
import { useI18n } from "./i18n/context";
import type { MessageKey } from "../shared/i18n/en";

// The moderation queue's filters: status, rating and sort always; the rest behind a disclosure.

const BOOLEANS = ["hasText", "hasPicture", "hasVideo", "hasReply", "complete", "autoModerated"] as const;
const STATUSES = ["pending", "published", "removed", "filtered"] as const;

export function Filters({ form, invalid }: { form: Record<string, string>; invalid: string[] }) {
  const { t } = useI18n();
  const [v, setV] = useState(form);
  const set = (k: string) => (value: string) => setV((o) => ({ ...o, [k]: value }));
  const anyYesNo = [
    { label: t("common.any"), value: "" },
    { label: t("common.yes"), value: "true" },
    { label: t("common.no"), value: "false" },
  ];
  // Status, rating and sort always; the rest behind a disclosure unless one is in use.
  const [more, setMore] = useState(Object.keys(form).some((k) => !["status", "order", "rating"].includes(k)));
  const error = (k: string) =>
    invalid.includes(k) ? t("reviews.filter.invalid", { fields: t(`reviews.filter.${k}` as MessageKey) }) : undefined;
  return (
    <Section title={t("reviews.filters")}>
      <Form method="get" aria-label={t("reviews.filters")}>
        <FormLayout>
          <InlineGrid columns={{ xs: 1, sm: 3 }} gap="300">
            <Select
              name="status"
              label={t("reviews.filter.status")}
              value={v.status ?? "pending"}
              onChange={set("status")}
              options={[
                ...STATUSES.map((s) => ({ label: t(`reviews.status.${s}`), value: s })),
                { label: t("common.any"), value: "all" },
              ]}
            />
            <Select
              name="rating"
              label={t("reviews.filter.rating")}
              value={v.rating ?? ""}
              onChange={set("rating")}
              options={[
                { label: t("common.any"), value: "" },
                ...[5, 4, 3, 2, 1].map((n) => ({ label: t("reviews.stars", { rating: n }), value: String(n) })),
              ]}
              error={error("rating")}
            />
            <Select
              name="order"
              label={t("reviews.sort")}
              value={v.order ?? "created,-1"}
              onChange={set("order")}
              options={REVIEW_SORTS.map((s) => ({ label: t(`reviews.sort.${s}`), value: s }))}
            />
          </InlineGrid>
          <Button
            variant="plain"
            disclosure={more ? "up" : "down"}
            onClick={() => setMore(!more)}
            ariaExpanded={more}
            ariaControls="more-review-filters"
          >
            {t("reviews.moreFilters")}
          </Button>
          <div id="more-review-filters" hidden={!more}>
            <InlineGrid columns={{ xs: 1, sm: 2, md: 4 }} gap="300">
              <TextField
                name="sku"
                label={t("reviews.filter.sku")}
                value={v.sku ?? ""}
                onChange={set("sku")}
                autoComplete="off"
              />
              <TextField
                name="tags"
                label={t("reviews.filter.tags")}
                value={v.tags ?? ""}
                onChange={set("tags")}
                autoComplete="off"
              />
              <TextField
                name="topics"
                label={t("reviews.filter.topics")}
                value={v.topics ?? ""}
                onChange={set("topics")}
                autoComplete="off"
              />
              <TextField
                name="from"
                type="date"
                label={t("reviews.filter.from")}
                value={v.from ?? ""}
                onChange={set("from")}
                autoComplete="off"
                error={error("from")}
              />
              <TextField
                name="to"
                type="date"
                label={t("reviews.filter.to")}
                value={v.to ?? ""}
                onChange={set("to")}
                autoComplete="off"
                error={error("to")}
              />
              {BOOLEANS.map((k) => (
                <Select
                  key={k}
                  name={k}
                  label={t(`reviews.filter.${k}`)}
                  value={v[k] ?? ""}
                  onChange={set(k)}
                  options={anyYesNo}
                />
              ))}
            </InlineGrid>
          </div>
          <InlineStack gap="200">
            <Button submit variant="primary">
              {t("reviews.filter.apply")}
            </Button>
            <Button url="/app/reviews">{t("reviews.filter.clear")}</Button>
          </InlineStack>
        </FormLayout>
      </Form>
    </Section>
  );
}
