import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, product, setup } from "./harness";

let t: Awaited<ReturnType<typeof setup>>;
let link = "";
let vt = "";

beforeAll(async () => {
  t = await setup();
  await t.admin("POST", "/products/batch", {
    products: [
      product("lamp", { name: "Desk <Lamp> & Co", image: "https://cdn.example/lamp.jpg" }),
      product("chair", { name: "Chair" }),
    ],
  });
  await t.admin("POST", "/orders", {
    orderId: "R-1",
    email: "r@example.com",
    name: "Rae Smith",
    items: [{ sku: "lamp" }, { sku: "chair" }],
  });
  link = (await t.admin("GET", "/rating-link/R-1")).body.link;
  vt = t.emu.control.state(t.customer).orders.find((o) => o.orderId === "R-1")!.verificationTokenId;
});
afterAll(() => t.emu.close());

describe("rating page", () => {
  it("lists the order's products with a star form each, escaped, without postMessage when standalone", async () => {
    const res = await call(link);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.text).toContain("Desk &lt;Lamp&gt; &amp; Co");
    expect(res.text).not.toContain("<Lamp>");
    expect(res.text.match(/<form class="rate"/g)).toHaveLength(2);
    expect(res.text.match(/type="radio" name="rating"/g)).toHaveLength(10);
    expect(res.text).not.toContain("postMessage");
  });

  it("embedded=1 posts {type: 'review-sent'} to the parent window after a successful submit", async () => {
    const res = await call(`${link}?embedded=1&source=email`);
    expect(res.text).toContain('<body class="embedded">');
    expect(res.text).toMatch(/window\.parent\.postMessage\(\{ type: "review-sent"[^)]*\}, "\*"\)/);
    expect(res.text).toContain('"source":"email"');
  });

  it("sku focuses one product and ratingClicked preselects a rating", async () => {
    const res = await call(`${link}?sku=chair&ratingClicked=4`);
    expect(res.text.match(/<form class="rate"/g)).toHaveLength(1);
    expect(res.text).toContain('data-sku="chair"');
    expect(res.text).toMatch(/value="4" id="r-chair-4" checked/);
    expect(res.text).toContain("Rate the other products of this order");
  });

  it("the page's submission (same endpoint and body as its script) stores a verified review and the page shows it", async () => {
    const page = await call(link);
    const config = JSON.parse(/var config = (\{.*?\});/.exec(page.text)![1]);
    expect(config).toEqual({ endpoint: "/api/demo-store", verificationTokenId: vt, orderId: "R-1", source: "web" });
    const res = await call(`${t.emu.origin}${config.endpoint}/chair/review`, {
      body: {
        verificationTokenId: config.verificationTokenId,
        orderId: config.orderId,
        rating: 5,
        text: "Comfy",
        source: config.source,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ verified: true, name: "Rae S." });
    const after = await call(link);
    expect(after.text.match(/<form class="rate"/g)).toHaveLength(1);
    expect(after.text).toContain("Already reviewed: ★★★★★");
  });

  it("runs its script: a submit POSTs the review and, embedded, posts review-sent to the parent", async () => {
    await t.admin("POST", "/orders", {
      orderId: "R-2",
      email: "r@example.com",
      name: "Rae Smith",
      items: [{ sku: "lamp" }],
    });
    const rateLink = (await t.admin("GET", "/rating-link/R-2")).body.link;
    const html = (await call(`${rateLink}?embedded=1`)).text;
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1];
    // A minimal stand-in for the browser objects the script touches.
    let submit: ((e: { preventDefault(): void }) => void) | undefined;
    let replaced = false;
    const status = { textContent: "", className: "" };
    const form = {
      getAttribute: () => "lamp",
      querySelector: (sel: string) => (sel === ".status" ? status : { disabled: false }),
      addEventListener: (_: string, fn: typeof submit) => (submit = fn),
      replaceWith: () => (replaced = true),
    };
    const message = new Promise<{ data: unknown; target: string }>((resolve) => {
      runInNewContext(script, {
        document: { querySelectorAll: () => [form], createElement: () => ({ setAttribute() {} }) },
        FormData: class {
          get(name: string) {
            return name === "rating" ? "4" : "Bright and sturdy";
          }
        },
        fetch: (url: string, init: RequestInit) => fetch(new URL(url, t.emu.origin), init),
        window: { parent: { postMessage: (data: unknown, target: string) => resolve({ data, target }) } },
      });
    });
    submit!({ preventDefault() {} });
    expect(await message).toEqual({ data: { type: "review-sent", sku: "lamp", orderId: "R-2" }, target: "*" });
    expect(replaced).toBe(true);
    const review = t.emu.control.state(t.customer).reviews.find((r) => r.orderId === "R-2")!;
    expect(review).toMatchObject({ sku: "lamp", rating: 4, text: "Bright and sturdy", verified: true, source: "web" });
  });

  it("answers a 404 page for an unknown token, order or customer", async () => {
    for (const url of [
      `${t.emu.rateUrl}/rate/demo-store/forged/R-1`,
      `${t.emu.rateUrl}/rate/demo-store/${vt}/R-2`,
      `${t.emu.rateUrl}/rate/nobody/${vt}/R-1`,
    ]) {
      const res = await call(url);
      expect(res.status).toBe(404);
      expect(res.text).toContain("Order not found");
    }
  });
});
