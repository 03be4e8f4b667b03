import { BlockStack, Text } from "@shopify/polaris";
import type { ReactNode } from "react";
import { useI18n } from "../i18n/context";
import { needsKey, type TitledProduct } from "../product-titles";

/**
 * A product as a list shows it: its title, and under it in smaller text its key when the title
 * alone does not single it out (shared with another product). `link` wraps the
 * title (a link) when given.
 */
export function ProductName({
  product,
  shared,
  link,
}: {
  product: TitledProduct;
  shared: ReadonlySet<string>;
  link?: (label: ReactNode) => ReactNode;
}) {
  const { t } = useI18n();
  const title = product.title ?? product.key;
  const withKey = product.title !== null && needsKey(product, shared);
  return (
    <BlockStack gap="050">
      <Text as="span" breakWord>
        {link ? link(title) : title}
      </Text>
      {withKey ? (
        <Text as="span" variant="bodySm" tone="subdued" breakWord>
          {t("products.key", { key: product.key })}
        </Text>
      ) : null}
    </BlockStack>
  );
}
