import { LOCAL_CUSTOMERS } from "../local-storefront/pages";
import { parseConfig } from "../../app/.server/config";
import { SHOPIFY_API_VERSION } from "../../app/.server/shopify";
import { startLocalStorefront, type LocalStorefront } from "../local-storefront/server";
import { DEMO_ACCOUNT, DEMO_SHOP, requestDemoBackSync } from "./demo";
import type { DemoAddress } from "./demo-summary";
import { googleFeedVerdict } from "./demo-google-feed";

// The offline demo's storefront act: the reviews service gets reviews for the demo catalog (photos,
// a video, replies, a syndicated and translated review, topics, an AI summary), the back-sync writes
// them into the simulated store's metafields, and the local storefront draws the product pages with
// the theme's blocks, its app proxy forwarding to the app server. Prints a product page with reviews.

const DEMO_SURVEY_ANSWERS = 180;

export interface StorefrontDemo {
  storefront: LocalStorefront;
  productUrl: string;
  /** The pages to open, for the summary the demo ends with. */
  addresses: DemoAddress[];
  /** The guest's order and the rating link printed, for the browser check to complete. */
  guest?: GuestOrder;
  rate?: { url: string; orderId: string };
}

export async function runStorefrontDemo(options: {
  env: NodeJS.ProcessEnv;
  emulatorOrigin: string;
  storeGraphqlUrl: string;
  storeAccessToken: string;
  appUrl: string;
  port: number;
  say: (line: string) => void;
  /** Waits on something slow, showing that it waits; runs it plainly when not given. */
  step?: <T>(label: string, work: () => Promise<T>) => Promise<T>;
  check: boolean;
  /** Delivered orders of the demo's order story: a guest can review with one of them. */
  deliveredOrders?: { id: string; name: string }[];
  timeoutMs?: number;
}): Promise<StorefrontDemo> {
  const { say } = options;
  const config = parseConfig(options.env);
  const state = (await (
    await fetch(`${options.emulatorOrigin}/__emulator/state?customer=${DEMO_ACCOUNT.customer}`)
  ).json()) as { products: { sku: string }[] };
  const skus = state.products.map((p) => p.sku);
  const seeded = await fetch(`${options.emulatorOrigin}/__emulator/seed-reviews`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ customer: DEMO_ACCOUNT.customer, skus }),
  });
  if (!seeded.ok) throw new Error(`the emulator refused the demo reviews: ${seeded.status} ${await seeded.text()}`);
  const { published, questions } = (await seeded.json()) as {
    published: Record<string, number>;
    questions: Record<string, number>;
  };
  const total = Object.values(published).reduce((a, b) => a + b, 0);
  say(
    `reviews: the reviews service now holds ${total} published reviews on ${Object.values(published).filter((n) => n > 0).length} of ${skus.length} products`,
  );

  // Survey answers, more than one page of the service's list, so the admin's surveys page shows a
  // score (and its months) computed over all of them.
  const nps = await fetch(`${options.emulatorOrigin}/__emulator/seed-nps`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ customer: DEMO_ACCOUNT.customer, count: DEMO_SURVEY_ANSWERS }),
  });
  if (!nps.ok) throw new Error(`the emulator refused the demo survey answers: ${nps.status} ${await nps.text()}`);
  say(
    `surveys: the reviews service now holds ${((await nps.json()) as { nps: number }).nps} survey answers (the admin's Surveys page shows their score by month)`,
  );

  await requestDemoBackSync(options.env, { reconcile: true });
  say("back-sync: asked for a full run (ratings and snapshots into the store's metafields)");

  const storefront = await startLocalStorefront({
    port: options.port,
    storeGraphqlUrl: options.storeGraphqlUrl,
    storeAccessToken: options.storeAccessToken,
    shop: DEMO_SHOP,
    apiVersion: SHOPIFY_API_VERSION,
    appUrl: options.appUrl,
    apiSecret: config.SHOPIFY_API_SECRET,
  });
  // The product with the most reviews; its page is the one to look at.
  const [sku] = Object.entries(published).sort((a, b) => b[1] - a[1])[0];
  const step = options.step ?? (<T>(_label: string, work: () => Promise<T>) => work());
  const deadline = Date.now() + (options.timeoutMs ?? 180_000);
  const product = await step("back-sync: waiting for the reviews in the store's metafields", async () => {
    for (;;) {
      const found = await storefront.reader.productById(sku);
      if (found?.metafields.some((m) => m.key === "snapshot" && m.namespace.endsWith("reviews"))) return found;
      if (Date.now() > deadline) {
        await storefront.close();
        throw new Error("the back-sync did not write the demo product's metafields in time (is the worker running?)");
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  });
  const productUrl = `${storefront.origin}/products/${product.handle}`;
  const customer = LOCAL_CUSTOMERS[0]!;
  say(`back-sync: the store's metafields hold the reviews of ${product.title}`);
  const addresses: DemoAddress[] = [
    {
      label: `product page with the most reviews (${published[sku]} reviews): sort, filter and page them`,
      url: productUrl,
      notes: [
        `write a review: choose "Log in as" ${customer.firstName} ${customer.lastName}, then "Write a review" (logged out, name an order instead)`,
        `questions: further down, "Questions and answers" lists ${questions[sku] ?? 0} questions; "Ask a question" sends one (it shows once answered)`,
      ],
    },
    { label: "the same page in Portuguese", url: `${storefront.origin}/pt-BR/products/${product.handle}` },
    { label: "all products", url: `${storefront.origin}/collections/all` },
    {
      label: "Google product ratings feed, the URL a merchant pastes into Merchant Center",
      url: `${storefront.origin}/apps/reviews/google-feed.xml`,
      notes: ["products are linked on the demo shop's primary domain; what is left out and why: docs/google-feed.md"],
      page: false,
    },
  ];
  // Three first reviews of a delivered order's product: the printed guest flow, the printed rating
  // link, and the check's own (a second review of a product through its order is refused).
  const [guest, rated, checked] = await guestOrders(options.emulatorOrigin, options.deliveredOrders ?? [], storefront);
  let rateLink: StorefrontDemo["rate"];
  if (guest) {
    // The number is not personal data; the buyer's e-mail stays in the service's copy of the order.
    addresses.push({
      label: `a guest with an order: logged out, give order ${guest.name} and its buyer's e-mail (in the reviews service's copy, under Operator)`,
      url: `${storefront.origin}/products/${guest.handle}`,
    });
  }
  if (rated) {
    const rate = new URL(`${storefront.origin}/collections/all`);
    rate.searchParams.set("rv-rate-order", rated.orderId);
    rate.searchParams.set("rv-rate-token", rated.token);
    // As a store's own e-mail would link it: the order by its name, the product by its title.
    rate.searchParams.set("rv-rate-name", rated.name);
    rate.searchParams.set("rv-rate-sku", rated.sku);
    rate.searchParams.set("rv-rate-product", rated.title);
    addresses.push({ label: "the rating modal, as a link in the service's e-mail would open it", url: rate.href });
    rateLink = { url: rate.href, orderId: rated.orderId };
  }
  if (options.check) {
    await checkStorefront(productUrl, storefront.origin, sku, say);
    await checkGoogleFeed(storefront.origin, say);
    await checkReviewWriting(storefront.origin, options.emulatorOrigin, sku, say);
    if (!checked) throw new Error("guest review check: fewer than 3 delivered demo order products at the service");
    await checkGuestReview(storefront.origin, options.emulatorOrigin, checked, say);
  }
  return { storefront, productUrl, addresses, guest, rate: rateLink };
}

async function checkStorefront(productUrl: string, origin: string, sku: string, say: (line: string) => void) {
  const html = await (await fetch(productUrl)).text();
  const stars = /role="img" aria-label="(\d[.,]\d out of 5 stars, \d+ reviews)"/.exec(html);
  const reviews = (html.match(/data-rv-review[\s>]/g) ?? []).length;
  if (!stars || reviews === 0)
    throw new Error(`storefront check: the product page lacks ${stars ? "reviews" : "star ratings"}`);
  const page2 = await fetch(`${origin}/apps/reviews/products/${sku}/reviews?page=2&pageSize=5&sort=created,desc`);
  const body = await page2.text();
  if (page2.status !== 200 || !body.includes("data-rv-page"))
    throw new Error(`storefront check: the app proxy answered ${page2.status}`);
  say(
    `storefront check: stars ("${stars[1]}") and ${reviews} reviews on the product page; the app proxy answers page 2 through the storefront`,
  );
}

/** The Google feed through the storefront's app proxy: valid by the 2.4 checker, and not empty. */
async function checkGoogleFeed(origin: string, say: (line: string) => void) {
  const res = await fetch(`${origin}/apps/reviews/google-feed.xml`);
  say(googleFeedVerdict(res.status, await res.text()));
}

interface GuestOrder {
  name: string;
  /** The order as the service holds it, and its verification token (a rating link's two halves). */
  orderId: string;
  token: string;
  email: string;
  sku: string;
  handle: string;
  title: string;
}

/**
 * Products of delivered story orders the service holds with their buyer's e-mail, guests' orders
 * first and the rest from the last: the Shop app act reviews a product of the first orders with an
 * account, and a product reviewed through its order cannot be reviewed through it again.
 */
async function guestOrders(
  emulatorOrigin: string,
  delivered: { id: string; name: string }[],
  storefront: LocalStorefront,
): Promise<GuestOrder[]> {
  const state = (await (
    await fetch(`${emulatorOrigin}/__emulator/state?customer=${DEMO_ACCOUNT.customer}`)
  ).json()) as {
    orders: {
      orderId: string;
      verificationTokenId: string;
      status: string;
      email?: string;
      userId?: string;
      items: { productId?: string }[];
    }[];
  };
  const found: GuestOrder[] = [];
  const held = delivered
    .map((d) => ({ d, o: state.orders.find((o) => o.orderId === d.id && o.status === "delivered" && o.email) }))
    .reverse()
    .sort((a, b) => Number(Boolean(a.o?.userId)) - Number(Boolean(b.o?.userId)));
  for (const { d, o: order } of held) {
    const skus = new Set<string>();
    for (const item of [...(order?.items ?? [])].reverse()) {
      // Reviews are per product (the catalog's key), whatever variant was bought.
      if (!item.productId || skus.has(item.productId)) continue;
      skus.add(item.productId);
      const product = await storefront.reader.productById(item.productId);
      if (product && order?.email)
        found.push({
          name: d.name,
          orderId: order.orderId,
          token: order.verificationTokenId,
          email: order.email,
          sku: item.productId,
          handle: product.handle,
          title: product.title,
        });
    }
  }
  return found;
}

/** A logged-out shopper reviews with an order's number and e-mail: a verified purchase at the service. */
async function checkGuestReview(
  origin: string,
  emulatorOrigin: string,
  guest: GuestOrder,
  say: (line: string) => void,
) {
  const text = "Reviewed as a guest with the order's number by the dev:local check.";
  const res = await fetch(`${origin}/apps/reviews/products/${guest.sku}/reviews`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ rating: 4, text, orderNumber: guest.name, email: guest.email }),
  });
  if (res.status !== 201)
    throw new Error(`guest review check: the app proxy answered ${res.status} ${await res.text()}`);
  const state = (await (
    await fetch(`${emulatorOrigin}/__emulator/state?customer=${DEMO_ACCOUNT.customer}`)
  ).json()) as { reviews: { sku: string; text?: string; verified?: boolean }[] };
  if (!state.reviews.some((r) => r.sku === guest.sku && r.text === text && r.verified))
    throw new Error("guest review check: the service does not hold the guest's review as a verified purchase");
  say(
    `guest review check: a logged-out shopper named order ${guest.name} and its e-mail; the service holds the review as a verified purchase`,
  );
}

/** A review written as the first "log in as" customer goes through the proxy and reaches the service. */
async function checkReviewWriting(origin: string, emulatorOrigin: string, sku: string, say: (line: string) => void) {
  const customer = LOCAL_CUSTOMERS[0]!;
  const text = "Written through the local storefront by the dev:local check.";
  const res = await fetch(`${origin}/apps/reviews/products/${sku}/reviews`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Cookie: `local_storefront_customer=${customer.id}` },
    body: JSON.stringify({ rating: 5, text, recommended: "yes" }),
  });
  if (res.status !== 201)
    throw new Error(`review writing check: the app proxy answered ${res.status} ${await res.text()}`);
  const state = (await (
    await fetch(`${emulatorOrigin}/__emulator/state?customer=${DEMO_ACCOUNT.customer}`)
  ).json()) as { reviews: { sku: string; text?: string; userId?: string; source?: string }[] };
  const stored = state.reviews.find((r) => r.sku === sku && r.text === text);
  if (!stored || stored.userId !== customer.id || stored.source !== "web")
    throw new Error("review writing check: the service does not hold the review as the logged-in customer's");
  say(
    `review writing check: a review written as ${customer.firstName} through the storefront reached the service (user ${customer.id}, source web)`,
  );
}
