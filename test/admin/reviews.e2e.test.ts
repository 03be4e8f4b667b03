import { text } from "node:stream/consumers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, embeddedUrl, screenshots } from "../helpers/admin-browser";
import { startAdminStack, type AdminStack } from "../helpers/admin-stack";
import { createOrderStateRepository } from "../../app/.server/orders/order-state.repository";

// The moderation queue in Chromium against the emulator's seeded account: filters, the review's
// media, reply and order, and a bulk approval with progress in which one review fails and is named.

const SHOP = "reviews-admin.myshopify.com";
let a: AdminStack;

beforeAll(async () => {
  a = await startAdminStack("admin-reviews", SHOP, { products: 4 });
  await a.s.connect(SHOP, "acme");
  a.s.emu.control.seed({ customer: "acme", products: 12 });
}, 180_000);
afterAll(async () => {
  await a?.close();
});

const reviews = () => a.s.emu.control.state("acme").reviews;

describe("moderation queue", () => {
  it("GIVEN pending reviews WHEN the merchant approves them in bulk and one fails THEN the rest are approved and the failure is named", async () => {
    const pending = reviews().filter((r) => r.status === "pending");
    expect(pending.length).toBeGreaterThan(2);
    const tab = await a.open();
    const { page } = tab;
    await tab.goto("/app/reviews");
    await page.getByText(`${pending.length} in total`).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, "reviews-pending");

    // The service fails the second moderation call it gets (an unknown review, as after a deletion).
    a.s.emu.control.setFaults({ failNext: { count: 1, status: 404 }, paths: "/reviews/[^/]+/moderate$" });
    await page
      .getByRole("checkbox", { name: /select all/i })
      .first()
      .check();
    await page.getByRole("button", { name: "Approve selected" }).click();
    await page
      .getByText(`${pending.length - 1} reviews updated.`)
      .first()
      .waitFor();
    await page.getByText("1 could not be updated:").waitFor();
    await page.getByText("The reviews service does not know this item any more.").waitFor();
    a.s.emu.control.clearFaults();
    const after = reviews();
    const stillPending = after.filter((r) => pending.some((p) => p._id === r._id) && r.status === "pending");
    expect(stillPending).toHaveLength(1);
    expect(after.filter((r) => pending.some((p) => p._id === r._id) && r.status === "published")).toHaveLength(
      pending.length - 1,
    );
    // The queue shows what is left: the one that failed.
    await page.getByText("1 in total").waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, "reviews-bulk-partial");
  }, 120_000);

  it("GIVEN filters THEN the list is what the service answers for them, with media, replies and orders shown", async () => {
    const tab = await a.open();
    const { page } = tab;
    await tab.goto("/app/reviews");
    await page.getByLabel("Status").selectOption("all");
    await page.getByRole("button", { name: "More filters" }).click();
    await page.getByLabel("With photos").selectOption("true");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await page.waitForURL(/hasPicture=true/);
    const withPhotos = reviews().filter((r) => r.pictures.length > 0).length;
    await page.getByText(`${withPhotos} in total`).waitFor();
    expect(await page.getByRole("img", { name: /^Photo 1 of the review by/ }).count()).toBeGreaterThan(0);
    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, "reviews-photos");

    await page.getByLabel("With photos").selectOption("");
    await page.getByLabel("With a reply").selectOption("true");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await page.waitForURL(/hasReply=true/);
    await page.getByText("Store reply").first().waitFor();

    // A filter the service would refuse is named and not sent.
    await tab.goto("/app/reviews?status=all&from=2026-10-10&to=2026-01-01");
    await page
      .getByText(/Some filters are not valid/)
      .first()
      .waitFor();
  }, 90_000);
});

describe("first row", () => {
  it("GIVEN Polaris' stylesheet still on its way WHEN the queue opens cold THEN its rows are in the document already, and the page hydrates once the stylesheet is in", async () => {
    const tab = await a.open();
    const { page } = tab;
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    // React's own complaints (a hydration mismatch is #418, #421 or #423 in production).
    page.on("console", (m) => void (m.type() === "error" && /react|hydrat/i.test(m.text()) && errors.push(m.text())));
    // The app's stylesheets are held until the rows have been looked for.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const stylesheets: string[] = [];
    await page.route(/\/assets\/.*\.css$/, async (route) => {
      stylesheets.push(route.request().url());
      await held;
      await route.fallback();
    });
    await page.goto(embeddedUrl(a.server, SHOP, "/app/reviews", { token: tab.token }), { waitUntil: "commit" });
    // Polled, not per frame: a page whose stylesheet is pending paints no frame.
    const rows = await page.waitForFunction(
      () => document.querySelectorAll(".Polaris-IndexTable__TableRow").length || false,
      undefined,
      { polling: 20, timeout: 30_000 },
    );
    expect(await rows.jsonValue()).toBeGreaterThan(0);
    expect(stylesheets.length).toBeGreaterThan(0);
    // App Bridge's script is the head's first script, before every stylesheet (Shopify asks for it
    // first; after a stylesheet it would hold the rows back until that stylesheet arrived).
    const head = await page.evaluate(() =>
      [...document.head.querySelectorAll("script, link[rel=stylesheet]")].map(
        (e) => e.tagName + (e.getAttribute("src") ?? ""),
      ),
    );
    expect(head[0]).toMatch(/^SCRIPT.*app-bridge\.js$/);
    expect(await page.locator("body script[src*=app-bridge]").count()).toBe(0);

    release();
    // Hydrated: React has taken the button over (its props on the element) and its handler answers.
    await page.waitForFunction(() => {
      const button = [...document.querySelectorAll("button")].find((b) => b.textContent?.includes("More filters"));
      return Boolean(button && Object.keys(button).some((k) => k.startsWith("__reactProps")));
    });
    await page.getByRole("button", { name: "More filters" }).click();
    await page.getByLabel("With photos").waitFor();
    expect(errors).toEqual([]);
  }, 90_000);
});

describe("order names", () => {
  it("GIVEN reviews of an order the app sent THEN the queue names the order as the merchant knows it (#1037), not by its id", async () => {
    const review = reviews().find((r) => r.orderId)!;
    expect(review).toBeDefined();
    // What the order sync keeps when it sends the order (order.sync.test.ts).
    const shop = await a.s.web.shops.get(SHOP);
    await createOrderStateRepository(a.s.t.db).save(shop.id, review.orderId!, { name: "#1037" });
    const tab = await a.open();
    const { page } = tab;
    await tab.goto(`/app/reviews?status=all&sku=${encodeURIComponent(review.sku)}`);
    await page
      .getByText(/Order #1037/)
      .first()
      .waitFor();
    expect(await page.getByText(new RegExp(`Order ${review.orderId}\\b`)).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, "reviews-order-names");
  }, 90_000);
});

describe("service errors", () => {
  it("GIVEN the service failing WHEN the queue loads THEN the merchant reads it in words and a retry loads it once the service is back", async () => {
    const tab = await a.open();
    const { page } = tab;
    a.s.emu.control.setFaults({ errorRate: 1, errorStatus: 503, paths: "/reviews/all$" });
    await tab.goto("/app/reviews?status=all");
    await page.getByText("The reviews service did not answer.").waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, "reviews-service-down");
    a.s.emu.control.clearFaults();
    await page.getByRole("button", { name: "Try again" }).click();
    await page.getByText(`${reviews().length} in total`).waitFor();
  }, 60_000);
});

describe("product report", () => {
  it("GIVEN the report WHEN the merchant narrows it and exports it THEN the CSV holds every product of that report", async () => {
    const tab = await a.open();
    const { page } = tab;
    await tab.goto("/app/report");
    const all = a.s.emu.control.state("acme").products.length;
    await page.getByText(`${all} in total`).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, "report");

    // Averages: one decimal, in the admin's language.
    const client = await (await import("../../app/.server/admin/reviews-client")).reviewsFor(a.s.web, SHOP);
    const first = (await client.admin.getProductReport({ order: "MoreReviews" })).result.find(
      (r) => r.reviews.aggregateRating !== null,
    )!;
    const oneDecimal = (locale: string) =>
      new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(
        first.reviews.aggregateRating!,
      );
    const productRow = page.getByRole("row", { name: new RegExp(first.name ?? first.sku) }).first();
    await productRow
      .getByRole("cell", { name: oneDecimal("en"), exact: true })
      .first()
      .waitFor();
    await tab.goto("/app/report", { locale: "pt-BR" });
    await page
      .getByRole("row", { name: new RegExp(first.name ?? first.sku) })
      .first()
      .getByRole("cell", { name: oneDecimal("pt-BR"), exact: true })
      .first()
      .waitFor();
    await screenshots(page, "report-pt-BR");
    await tab.goto("/app/report");

    await page.getByLabel("Order").selectOption("MostPositive");
    await page.getByLabel("Only published reviews").check();
    await page.getByRole("button", { name: "Show", exact: true }).click();
    await page.waitForURL(/onlyPublished=true/);
    const expected = await client.admin.getProductReport({ order: "MostPositive", onlyPublished: true, limit: 500 });
    await page.getByText(`${expected.total} in total`).waitFor();

    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export CSV" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^product-report-\d{4}-\d{2}-\d{2}\.csv$/);
    // Read through the protocol: the browser may be the suite's shared one, whose files are not ours.
    const csv = (await text(await file.createReadStream())).replace(/^\uFEFF/, "");
    const lines = csv.trim().split("\r\n");
    expect(lines[0]).toBe(
      "Key,Product,Categories,Reviews,Average,Published,Published average,With photos,With video,With text",
    );
    expect(lines).toHaveLength(expected.total + 1);
    // In the report's order, every product once.
    expect(lines.slice(1).map((l) => l.split(",")[0])).toEqual(expected.result.map((r) => r.sku));
    await page.getByText("Report exported.").waitFor();
  }, 90_000);
});
