import { DEMO_ACCOUNT, demoReviewsClient } from "./demo";

// Reviews for the demo, as shoppers would leave them through the storefront (the service's Client
// API): a couple of dozen on the demo catalog, waiting for moderation, so the embedded admin's
// moderation queue has work to show.

const TEXTS = [
  [5, "Exactly as described, lovely quality."],
  [4, "Good value, arrived quickly."],
  [2, "Smaller than I expected."],
  [5, "Bought a second one for a friend."],
  [3, "Fine, nothing special."],
  [1, "Broke after a week."],
] as const;

export async function seedDemoReviews(options: {
  emulatorOrigin: string;
  count?: number;
  say: (line: string) => void;
}): Promise<number> {
  const client = demoReviewsClient(options.emulatorOrigin);
  const state = (await (
    await fetch(`${options.emulatorOrigin}/__emulator/state?customer=${DEMO_ACCOUNT.customer}`)
  ).json()) as { products: { sku: string }[] };
  const count = Math.min(options.count ?? 24, state.products.length);
  for (let i = 0; i < count; i++) {
    const [rating, text] = TEXTS[i % TEXTS.length];
    await client.storefront.submitReview(state.products[i].sku, {
      userId: `demo-shopper-${i}`,
      email: `shopper${i}@example.com`,
      rating,
      text,
      source: "web",
    });
  }
  options.say(`${count} demo reviews left on the storefront, waiting for moderation in the embedded admin`);
  return count;
}
