// The `shopify` global each module sees (the Shopify CLI writes the same kind of file).
import "@shopify/ui-extensions";

//@ts-expect-error the module is the extension's own source file
declare module "./src/CustomerReviewsBlock.tsx" {
  const shopify: import("@shopify/ui-extensions/admin.customer-details.block.render").Api;
  const globalThis: { shopify: typeof shopify };
}
