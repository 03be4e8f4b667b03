import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../helpers/contexts";
import { startStorefrontStack, STOREFRONT_SHOP, type StorefrontStack } from "../helpers/storefront-stack";

// Questions and answers through the app proxy on real parts (local storefront → app → emulator):
// pages cut by the app from the service's one list, a shopper's question with the identity rules of
// a review, hostile text shown back as text, and a question kept when the service fails.

let st: StorefrontStack;
let sku: string;
const ANA = { id: "7001", email: "ana.souza@example.com" };

beforeAll(async () => {
  st = await startStorefrontStack("questions", {
    JOB_BACKOFF_MS: "50",
    REVIEWS_TIMEOUT_MS: "1000",
    PROXY_WRITE_IP_LIMIT_PER_HOUR: "1000",
    PROXY_WRITE_CUSTOMER_LIMIT_PER_HOUR: "1000",
    PROXY_CACHE_MS: "0",
  });
  sku = st.productIds[0];
  await st.s.web.shops.updateSettings(STOREFRONT_SHOP, { orders: { orderIdSource: "name" } });
  const client = await st.s.worker.reviewsFor(STOREFRONT_SHOP);
  await client.admin.createOrderV2({
    orderId: "#1001",
    email: "buyer.one@example.net",
    name: "Rita Buyer",
    status: "delivered",
    items: [{ productId: sku, sku }],
  });
}, 120_000);
afterAll(() => st?.close());

const questions = () => st.s.emu.control.state("acme").questions.filter((q) => q.sku === sku);
const page = async (query: string) => {
  const res = await fetch(`${st.storefront.origin}/apps/reviews/products/${sku}/questions?${query}`);
  return { status: res.status, cache: res.headers.get("cache-control"), html: await res.text() };
};
const ids = (html: string) => [...html.matchAll(/id="rv-question-([^"]+)"/g)].map((m) => m[1]);

async function ask(body: unknown, customer?: string) {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (customer) headers.Cookie = `local_storefront_customer=${customer}`;
  const res = await fetch(`${st.storefront.origin}/apps/reviews/products/${sku}/questions`, {
    method: "POST",
    headers,
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text.startsWith("{") ? (JSON.parse(text) as Record<string, unknown>) : null };
}

describe("questions and answers through the app proxy", () => {
  it("GIVEN more published questions than a page THEN the app pages them newest first, each once, and never shows one in moderation", async () => {
    const published = questions()
      .filter((q) => q.status === "published")
      .sort((a, b) => (a.created < b.created ? 1 : -1));
    expect(published.length).toBeGreaterThan(5);
    const first = await page("page=1&pageSize=5&locale=pt-BR");
    expect(first.status).toBe(200);
    expect(first.cache).not.toMatch(/private/);
    const second = await page("page=2&pageSize=5&locale=pt-BR");
    expect([...ids(first.html), ...ids(second.html)]).toEqual(published.map((q) => q._id));
    expect(first.html).toContain(`${published.length} perguntas`);
    expect(first.html).toContain("Página 1 de 2");
    const waiting = questions().find((q) => q.status === "sent")!;
    expect(first.html + second.html).not.toContain(waiting.text);
    // An answered question shows its answer; an unanswered one says so.
    expect(first.html).toContain(published.find((q) => q.reply)!.reply!.text);
    expect(first.html + second.html).toContain("Ainda sem resposta.");
  });

  it("GIVEN a bad page or product key THEN 400 with the reason, and nothing is asked of the service", async () => {
    const since = st.s.emu.control.lastRequestSeq();
    expect((await page("page=0")).status).toBe(400);
    expect((await page("pageSize=500")).html).toMatch(/pageSize must be/);
    expect((await page("sort=created")).status).toBe(400);
    expect(st.s.emu.control.requests(since).filter((e) => e.path.endsWith("/questions"))).toHaveLength(0);
  });

  it("GIVEN a logged-in customer THEN the question goes as that customer (id and e-mail from Shopify), whatever the browser says", async () => {
    const res = await ask({ text: "Does it come gift wrapped?", userId: "666", email: "forged@example.org" }, ANA.id);
    expect(res).toMatchObject({ status: 201, body: { status: "sent" } });
    const q = questions().find((x) => x.text === "Does it come gift wrapped?")!;
    expect(q).toMatchObject({ userId: ANA.id, email: ANA.email, status: "sent" });
    // Not shown while in moderation; answered (and so published) in the service, it is listed first.
    expect((await page("page=1")).html).not.toContain("Does it come gift wrapped?");
    st.s.emu.control.answerQuestion(q._id, "Yes, on request at checkout.");
    const { html } = await page("page=1");
    expect(ids(html)[0]).toBe(q._id);
    expect(html).toContain("Yes, on request at checkout.");
  });

  it("GIVEN a guest THEN a verified order lets them ask; an e-mail alone only when the merchant allows guests; markup and the honeypot send nothing", async () => {
    expect(
      await ask({ text: "Is the fabric thick?", orderNumber: "1001", email: "someone.else@example.net" }),
    ).toMatchObject({ status: 422, body: { errors: { orderNumber: "order_not_found" } } });
    expect(
      await ask({ text: "Is the fabric thick?", orderNumber: "#1001", email: "Buyer.One@example.net" }),
    ).toMatchObject({ status: 201 });
    expect(questions().find((x) => x.text === "Is the fabric thick?")).toMatchObject({
      email: "Buyer.One@example.net",
    });
    expect(await ask({ text: "Any discount codes?", email: "walk.in@example.net" })).toMatchObject({
      status: 403,
      body: { error: "login_required" },
    });
    const before = questions().length;
    expect(await ask({ text: "<b>bold</b> question here" }, ANA.id)).toMatchObject({
      status: 422,
      body: { errors: { text: "markup" } },
    });
    expect(await ask({ text: "Hi" }, ANA.id)).toMatchObject({ status: 422, body: { errors: { text: "required" } } });
    expect(await ask({ text: "Totally real question", website: "http://spam.example" }, ANA.id)).toMatchObject({
      status: 202,
    });
    expect(questions()).toHaveLength(before);
  });

  it("GIVEN the merchant allows guests' questions THEN a guest asks with a name and an e-mail, under the same limits and honeypot; reviews from guests stay off", async () => {
    await st.s.web.shops.updateSettings(STOREFRONT_SHOP, {
      orders: { orderIdSource: "name" },
      storefront: { guestQuestions: true },
    });
    try {
      const before = questions().length;
      expect(await ask({ text: "Does it come in blue?", email: "walk.in@example.net" })).toMatchObject({
        status: 422,
        body: { errors: { name: "required" } },
      });
      expect(
        await ask({ text: "Does it come in blue?", email: "walk.in@example.net", name: "<i>Wal</i>" }),
      ).toMatchObject({ status: 422, body: { errors: { name: "markup" } } });
      expect(
        await ask({ text: "Does it come in blue?", email: "walk.in@example.net", name: "W".repeat(61) }),
      ).toMatchObject({ status: 422, body: { errors: { name: "too_long" } } });
      expect(await ask({ text: "Does it come in blue?", email: "walk.in@", name: "Walter" })).toMatchObject({
        status: 422,
        body: { errors: { email: "email" } },
      });
      expect(
        await ask({
          text: "Does it come in blue?",
          email: "walk.in@example.net",
          name: "Walter",
          website: "http://spam.example",
        }),
      ).toMatchObject({ status: 202 });
      expect(questions()).toHaveLength(before);
      expect(
        await ask({ text: "Does it come in blue?", email: "walk.in@example.net", name: "  Walter   Inn " }),
      ).toMatchObject({ status: 201 });
      expect(questions().find((x) => x.text === "Does it come in blue?")).toMatchObject({
        email: "walk.in@example.net",
        userId: "guest:walk.in@example.net",
        name: "Walter Inn",
        status: "sent",
      });
      // The reviews switch is its own: a guest without an order still cannot review.
      const review = await fetch(`${st.storefront.origin}/apps/reviews/products/${sku}/reviews`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ rating: 5, email: "walk.in@example.net" }),
      });
      expect(review.status).toBe(403);
    } finally {
      await st.s.web.shops.updateSettings(STOREFRONT_SHOP, { orders: { orderIdSource: "name" } });
    }
  });

  it("GIVEN a published question with hostile text (from another channel) THEN the page shows it as text", async () => {
    const client = await st.s.worker.reviewsFor(STOREFRONT_SHOP);
    await client.storefront.askQuestion(sku, {
      userId: "x",
      email: "x@example.com",
      text: '<img src=x onerror="alert(1)"> & <script>alert(2)</script>',
    });
    const hostile = questions().find((q) => q.text.startsWith("<img"))!;
    st.s.emu.control.answerQuestion(hostile._id, "<a href=javascript:alert(3)>no</a>");
    const { html } = await page("page=1&pageSize=20");
    expect(html).toContain("&lt;img src=x onerror=&#34;alert(1)&#34;&gt; &amp; &lt;script&gt;alert(2)&lt;/script&gt;");
    expect(html).toContain("&lt;a href=javascript:alert(3)&gt;no&lt;/a&gt;");
    expect(html).not.toMatch(/<script|<img src=x|<a href=javascript/);
  });

  it("GIVEN the service failing when a shopper asks THEN they are told it was received, and the worker sends it exactly once", async () => {
    const since = st.s.emu.control.lastRequestSeq();
    st.s.emu.control.setFaults({ loseAnswerNext: 1, paths: "^/api/acme/[^/]+/question$" });
    try {
      expect(await ask({ text: "Will it be restocked soon?" }, ANA.id)).toMatchObject({
        status: 202,
        body: { status: "received" },
      });
    } finally {
      st.s.emu.control.clearFaults();
    }
    await eventually(
      () => st.s.web.db.pendingReview.count(),
      (n) => n === 0,
      60_000,
    );
    await st.s.idle();
    expect(questions().filter((q) => q.text === "Will it be restocked soon?")).toHaveLength(1);
    // Sent once (the shopper's try); the worker looked it up among the questions instead.
    const log = st.s.emu.control.requests(since);
    expect(log.filter((e) => e.method === "POST" && e.path === `/api/acme/${sku}/question`)).toHaveLength(1);
    expect(log.some((e) => e.method === "GET" && e.path === "/api/acme/questions/all")).toBe(true);

    st.s.emu.control.setFaults({ errorRate: 1, errorStatus: 503, paths: "^/api/acme/[^/]+/question$" });
    try {
      expect(await ask({ text: "Is there a warranty?" }, ANA.id)).toMatchObject({ status: 202 });
      await eventually(
        async () => (await st.s.web.db.pendingReview.findMany()).every((p) => p.attempts >= 2),
        (ok) => ok,
        30_000,
      );
      expect(questions().filter((q) => q.text === "Is there a warranty?")).toHaveLength(0);
    } finally {
      st.s.emu.control.clearFaults();
    }
    await eventually(
      () => st.s.web.db.pendingReview.count(),
      (n) => n === 0,
      60_000,
    );
    await st.s.idle();
    expect(questions().filter((q) => q.text === "Is there a warranty?")).toMatchObject([
      { userId: ANA.id, email: ANA.email },
    ]);
  });
});
