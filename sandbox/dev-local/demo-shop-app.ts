import pino from "pino";
import { ReviewsPermanentError } from "../../app/.server/reviews";

import { createAdminGraphql, SHOPIFY_API_VERSION, METAOBJECT_DEFINITION_BY_TYPE } from "../../app/.server/shopify";
import { PRODUCT_REVIEW_TYPE } from "../../app/.server/shopapp";
import { DEMO_ACCOUNT, DEMO_SHOP, demoReviewsClient, requestDemoBackSync } from "./demo";

// The demo's Shop app act, after the orders and before the ratings act: buyers of delivered orders
// (customers with an account, as the Shop app needs) review a product of their order through the
// service's verified path (order find → verification token → review), the merchant approves them,
// and a back-sync is asked for. The back-sync writes them as Shopify's standard product_review
// metaobjects in the simulated store (a development store with the app's test access); this act
// waits until the store holds them, read back through its Admin GraphQL endpoint. The ratings act
// that follows checks the totals in the product metafields, these reviews included.

const TEXTS = [
  [5, "Arrived quickly and looks even better in person."],
  [4, "Good quality for the price."],
  [5, "Second time I buy it, still great."],
] as const;

interface ServiceOrder {
  orderId: string;
  userId?: string | null;
  email?: string | null;
  items?: { productId?: string; sku?: string }[];
}

export async function runShopAppDemo(options: {
  env: NodeJS.ProcessEnv;
  emulatorOrigin: string;
  storeGraphqlUrl: string;
  storeAccessToken: string;
  deliveredOrders: { id: string; name: string }[];
  say: (line: string) => void;
  progress?: (line: string) => void;
  check: boolean;
  /** Reviews to write at most (one per delivered order of a customer). */
  count?: number;
  timeoutMs?: number;
}): Promise<{ reviewed: number; inStore: number }> {
  const client = demoReviewsClient(options.emulatorOrigin);
  const state = (await (
    await fetch(`${options.emulatorOrigin}/__emulator/state?customer=${DEMO_ACCOUNT.customer}`)
  ).json()) as { orders: ServiceOrder[] };
  const delivered = new Set(options.deliveredOrders.map((o) => o.id));
  // Orders of a customer account only: a guest order's review cannot show in the Shop app.
  const orders = state.orders.filter((o) => delivered.has(o.orderId) && o.userId && o.items?.length);

  const gql = createAdminGraphql({
    shop: DEMO_SHOP,
    accessToken: options.storeAccessToken,
    apiVersion: SHOPIFY_API_VERSION,
    endpoint: options.storeGraphqlUrl,
    logger: pino({ level: "silent" }),
  });
  const inStore = async () =>
    (
      await gql.query<{ metaobjectDefinitionByType: { metaobjectsCount: number } | null }>(
        METAOBJECT_DEFINITION_BY_TYPE,
        { type: PRODUCT_REVIEW_TYPE },
      )
    ).metaobjectDefinitionByType?.metaobjectsCount ?? 0;
  const before = await inStore();

  let reviewed = 0;
  for (const order of orders) {
    if (reviewed >= (options.count ?? 6)) break;
    const { verificationTokenId } = await client.storefront.findOrder({
      orderId: order.orderId,
      userId: order.userId!,
    });
    // The first product of the order that its buyer has not reviewed yet (the account and guest
    // checks before this act reviewed some).
    for (const item of order.items ?? []) {
      const sku = item.productId ?? item.sku;
      if (!sku) continue;
      const [rating, text] = TEXTS[reviewed % TEXTS.length];
      try {
        const review = await client.storefront.submitReview(sku, {
          verificationTokenId,
          orderId: order.orderId,
          rating,
          text,
          source: "email",
        });
        await client.admin.moderateReview(review._id, true);
        reviewed++;
        break;
      } catch (error) {
        if (error instanceof ReviewsPermanentError && error.status === 409) continue;
        throw error;
      }
    }
  }

  await requestDemoBackSync(options.env);
  options.say(
    `Shop app: ${reviewed} buyers with an account reviewed a product of their delivered order (verified, approved)`,
  );

  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  let held = before;
  for (;;) {
    held = await inStore();
    if (held >= before + reviewed || Date.now() > deadline) break;
    options.progress?.(`back-sync: ${held - before} of ${reviewed} reviews are product_review metaobjects …`);
    // The back-sync runs in the worker; its result shows only in the store.
    await new Promise((r) => setTimeout(r, 500));
  }
  if (held < before + reviewed && options.check)
    throw new Error(
      `Shop app: ${held - before} of ${reviewed} reviews reached the store as product_review metaobjects`,
    );
  options.say(`Shop app: the store holds ${held} product_review metaobjects (Shopify's standard review format)`);
  return { reviewed, inStore: held };
}
