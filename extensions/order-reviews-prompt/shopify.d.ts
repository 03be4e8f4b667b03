// The `shopify` global each module sees (the Shopify CLI writes the same kind of file).
import "@shopify/ui-extensions";

//@ts-expect-error the module is the extension's own source file
declare module "./src/OrderStatusBlock.tsx" {
  const shopify: import("@shopify/ui-extensions/customer-account.order-status.block.render").Api;
  const globalThis: { shopify: typeof shopify };
}

//@ts-expect-error the module is the extension's own source file
declare module "./src/ThankYouBlock.tsx" {
  const shopify: import("@shopify/ui-extensions/purchase.thank-you.block.render").Api;
  const globalThis: { shopify: typeof shopify };
}
