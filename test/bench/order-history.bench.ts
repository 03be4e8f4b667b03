import { eventually } from "../helpers/contexts";
import { startStorefrontStack, STOREFRONT_SHOP } from "../helpers/storefront-stack";
import { placeAccountOrder } from "../../sandbox/simulated-store/order-story";
import { STOREFRONT_CUSTOMERS } from "../../sandbox/simulated-store/storefront-customers";
import type { BenchResult } from "./report";

// "Rate your order" on a long order history: a storefront account with many orders (sent to the app
// as Shopify's webhooks, so the service holds them through the real order sync) reads its whole
// history through the app proxy, page after page ("More orders"), as the account block does. The
// target is the spec's batch flow: one `orders/find-batch` call per page of 20 orders, nothing else
// at the service; the figures add how long each page took end to end.

export async function runOrderHistoryBench(opts: { orders: number }): Promise<BenchResult[]> {
  const st = await startStorefrontStack("bench-order-history", {
    PROXY_IP_LIMIT_PER_MIN: "100000",
    PROXY_SHOP_LIMIT_PER_MIN: "100000",
  });
  try {
    const ana = STOREFRONT_CUSTOMERS[0]!;
    const start = Date.now() - opts.orders * 3_600_000;
    for (let i = 0; i < opts.orders; i++) {
      for (const { webhooks } of placeAccountOrder(st.book, ana, [i % 10], { at: new Date(start + i * 3_600_000) })) {
        for (const w of webhooks) await st.s.deliver(w.topic, STOREFRONT_SHOP, w.payload);
      }
    }
    await st.s.idle(300_000);
    const held = () =>
      Promise.resolve(st.s.emu.control.state("acme").orders.filter((o) => o.email === ana.email).length);
    await eventually(held, (n) => n === opts.orders, 300_000);

    const since = st.s.emu.control.lastRequestSeq();
    const times: number[] = [];
    let after: string | null = null;
    let shown = 0;
    let pages = 0;
    do {
      const t0 = performance.now();
      const res: Response = await fetch(
        `${st.storefront.origin}/apps/reviews/orders${after ? `?after=${encodeURIComponent(after)}` : ""}`,
        { headers: { Cookie: `local_storefront_customer=${ana.id}` } },
      );
      const html: string = await res.text();
      times.push(performance.now() - t0);
      if (res.status !== 200) throw new Error(`order history page ${pages + 1}: ${res.status}`);
      shown += [...html.matchAll(/id="rv-order-\d+"/g)].length;
      after = /data-next="([^"]+)"/.exec(html)?.[1] ?? null;
      pages++;
    } while (after);
    const calls = st.s.emu.control.requests(since);
    const batch = calls.filter((c) => c.path.endsWith("/orders/find-batch")).length;
    const sorted = [...times].sort((a, b) => a - b);
    const perTwenty = batch / Math.ceil(opts.orders / 20);
    return [
      {
        scenario: "order history: service calls per page",
        figures: {
          "orders of the customer": opts.orders,
          "orders shown": shown,
          pages,
          "find-batch calls": batch,
          "other calls to the service": calls.length - batch,
          "page time p50 (ms)": Math.round(sorted[Math.floor(sorted.length / 2)]!),
          "page time max (ms)": Math.round(sorted.at(-1)!),
        },
        targets: {
          "service calls per 20 orders": {
            value: Math.round(perTwenty * 100) / 100,
            limit: 1,
            ok: perTwenty <= 1 && calls.length === batch && shown === opts.orders,
          },
        },
      },
    ];
  } finally {
    await st.close();
  }
}
