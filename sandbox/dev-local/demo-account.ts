import { z } from "zod";
import { LOCAL_CUSTOMERS } from "../local-storefront/pages";
import { DEMO_ACCOUNT } from "./demo";
import type { DemoAddress } from "./demo-summary";

// The offline demo's "rate your order" act: the simulated store places orders of the first "log
// in as" customer (two delivered, one paid), each change a signed webhook to the app; once the
// reviews service holds them, the demo prints the account page where that customer rates them in
// the rating modal. With `check`, the page's order status is read through the app proxy as that
// customer: every order shown, a Rate link per product, one find-batch call.

const accountOrdersSchema = z.object({
  orders: z.array(z.object({ id: z.string(), name: z.string(), fate: z.string(), products: z.number() })),
  notAcknowledged: z.number(),
});
const stateSchema = z.object({ orders: z.array(z.looseObject({ orderId: z.string(), status: z.string() })) });
const logSchema = z.object({ requests: z.array(z.looseObject({ seq: z.number(), path: z.string() })) });

export async function runAccountDemo(options: {
  storeControlUrl: string;
  emulatorOrigin: string;
  storefrontOrigin: string;
  say: (line: string) => void;
  /** Waits on something slow, showing that it waits; runs it plainly when not given. */
  step?: <T>(label: string, work: () => Promise<T>) => Promise<T>;
  check: boolean;
  timeoutMs?: number;
}): Promise<{ accountUrl: string; address: DemoAddress }> {
  const { say } = options;
  const customer = LOCAL_CUSTOMERS[0]!;
  const res = await fetch(`${options.storeControlUrl}/orders/account?customer=${customer.id}`, { method: "POST" });
  if (!res.ok)
    throw new Error(`the simulated store did not place the account's orders: ${res.status} ${await res.text()}`);
  const { orders, notAcknowledged } = accountOrdersSchema.parse(await res.json());
  if (notAcknowledged) throw new Error(`account orders: ${notAcknowledged} webhooks not acknowledged by the app`);
  const state = () =>
    fetch(`${options.emulatorOrigin}/__emulator/state?customer=${DEMO_ACCOUNT.customer}`).then(async (r) =>
      stateSchema.parse(await r.json()),
    );
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  const step = options.step ?? (<T>(_label: string, work: () => Promise<T>) => work());
  await step(
    `rate your order: waiting for ${customer.firstName}'s ${orders.length} orders at the reviews service`,
    async () => {
      for (;;) {
        const held = (await state()).orders;
        const settled = orders.filter((o) => held.some((h) => h.orderId === o.id && h.status === o.fate)).length;
        if (settled === orders.length) return;
        if (Date.now() > deadline)
          throw new Error(`account orders: the reviews service holds ${settled} of ${orders.length} at their status`);
        await new Promise((r) => setTimeout(r, 250));
      }
    },
  );
  // Products of the delivered orders can be rated now; the paid order's wait for its parcel.
  const products = orders.filter((o) => o.fate === "delivered").reduce((n, o) => n + o.products, 0);
  const accountUrl = `${options.storefrontOrigin}/account/login-as?customer=${customer.id}&return=${encodeURIComponent("/account")}`;
  const summary = `${customer.firstName} ${customer.lastName} has ${orders.length} orders (${orders.map((o) => `${o.name} ${o.fate}`).join(", ")})`;
  say(`rate your order: ${summary}`);
  if (options.check) await checkAccount(options, customer.id, orders.length, products, say);
  return {
    accountUrl,
    address: {
      label: `"Rate your orders", logged in as ${customer.firstName} ${customer.lastName}: ${summary}; "Rate" opens the rating modal`,
      url: accountUrl,
    },
  };
}

async function checkAccount(
  options: { storefrontOrigin: string; emulatorOrigin: string },
  customerId: string,
  orders: number,
  products: number,
  say: (line: string) => void,
) {
  const log = async (since = 0) =>
    logSchema.parse(await (await fetch(`${options.emulatorOrigin}/__emulator/requests?since=${since}`)).json())
      .requests;
  const before = Math.max(0, ...(await log()).map((r) => r.seq));
  const page = await fetch(`${options.storefrontOrigin}/apps/reviews/orders`, {
    headers: { Cookie: `local_storefront_customer=${customerId}` },
  });
  const html = await page.text();
  const shown = (html.match(/id="rv-order-\d+"/g) ?? []).length;
  const rate = (html.match(/data-rv-rate-token="/g) ?? []).length;
  // Calls to the Client API, but for a token request (not a call per page) and the store-level
  // figures the worker's back-sync may read meanwhile (summary, top-rated, carousel).
  const calls = (await log(before)).filter(
    (r) => r.path.startsWith("/api/") && !/token|\/store-reviews\/|\/top-rated\//.test(r.path),
  );
  // One review per product: a product she already reviewed (on its page, earlier in the demo) is
  // shown with her review instead of a Rate link.
  const reviewed = (html.match(/data-rv-reviewed/g) ?? []).length;
  if (page.status !== 200 || shown !== orders || rate > products || rate + reviewed < products)
    throw new Error(
      `account check: ${page.status}, ${shown} of ${orders} orders, ${rate} Rate links and ${reviewed} reviewed for ${products} delivered products`,
    );
  if (calls.length !== 1 || !calls[0]!.path.endsWith("/orders/find-batch"))
    throw new Error(
      `account check: ${calls.length} calls to the service (${calls.map((c) => c.path).join(", ")}), expected one find-batch`,
    );
  say(
    `account check: the account page's block shows ${shown} orders with ${rate} Rate links${reviewed ? ` (${reviewed} already reviewed)` : ""}, from one find-batch call`,
  );
}
