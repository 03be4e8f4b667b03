import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, screenshots } from "../helpers/admin-browser";
import { startAdminStack, type AdminStack } from "../helpers/admin-stack";
import { createOrderStateRepository } from "../../app/.server/orders/order-state.repository";

// Questions, survey responses and the report's charts in Chromium against the emulator's seeded
// account; every list empty once (product groups: groups.e2e.test.ts).

const SHOP = "lists-admin.myshopify.com";
let a: AdminStack;

beforeAll(async () => {
  // The charts' sums are not reused: each test reads what the service holds at that moment.
  a = await startAdminStack("admin-lists", SHOP, { products: 4, overrides: { ADMIN_STATS_CACHE_MS: "0" } });
  await a.s.connect(SHOP, "acme");
  a.s.emu.control.seed({ customer: "acme", products: 12 });
}, 180_000);
afterAll(async () => {
  await a?.close();
});

const state = () => a.s.emu.control.state("acme");

/** The cells of a chart's data table (visually hidden until asked for: screen readers read it). */
const tableCells = (page: Page, name: string) =>
  page
    .getByRole("table", { name })
    .locator("tbody tr")
    .evaluateAll((rows) => rows.map((r) => [...r.children].map((c) => c.textContent!.trim())));

const monthName = (key: string) =>
  new Date(`${key}-15T00:00:00Z`).toLocaleString("en", { month: "long", year: "numeric", timeZone: "UTC" });

/** The twelve months up to `last` ("YYYY-MM"), oldest first. */
const twelveMonths = (last: string) => {
  const [y, m] = last.split("-").map(Number);
  return Array.from({ length: 12 }, (_, i) => new Date(Date.UTC(y!, m! - 12 + i, 1)).toISOString().slice(0, 7));
};

/** NPS as a merchant computes it: % promoters (9–10) less % detractors (0–6). */
const npsOfRatings = (ratings: number[]) =>
  ratings.length
    ? Math.round(
        ((ratings.filter((r) => r >= 9).length - ratings.filter((r) => r <= 6).length) / ratings.length) * 100,
      ) || 0
    : null;

describe("empty lists", () => {
  it("GIVEN an account with nothing in it THEN every list shows its empty state and no pagination", async () => {
    const tab = await a.open();
    const { page } = tab;
    const pagers = () => page.getByRole("navigation", { name: "Pagination" }).count();
    // A list with rows has its pagination (so the check below can fail).
    await tab.goto("/app/questions?status=all");
    await page.getByText(`${state().questions.length} in total`).waitFor();
    expect(await pagers()).toBe(1);
    a.s.emu.control.reset();
    try {
      for (const [path, empty] of [
        ["/app/reviews", "No reviews match"],
        ["/app/questions?status=all", "No questions here"],
        ["/app/surveys", "No survey responses yet"],
        ["/app/report", "No products in this report"],
        ["/app/groups", "No product groups"],
      ] as const) {
        await tab.goto(path);
        await page.getByText(empty).waitFor();
        expect(await pagers(), path).toBe(0);
        // No answer, no review: no chart either.
        expect(await page.getByRole("table", { name: /^(Reviews by month|Score distribution)$/ }).count(), path).toBe(
          0,
        );
      }
      await screenshots(page, "groups-empty");
    } finally {
      a.s.emu.control.seed({ customer: "acme", products: 12 });
    }
  }, 120_000);
});

describe("questions and surveys", () => {
  it("GIVEN questions and survey responses THEN each page lists them, partial answers marked", async () => {
    const tab = await a.open();
    const { page } = tab;
    await tab.goto("/app/questions");
    await page.getByText(`${state().questions.length} in total`).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, "questions");

    // An answer's order named as the merchant knows it, where the order sync kept the name.
    const answered = state().nps.find((r) => r.orderId)!;
    const shop = await a.s.web.shops.get(SHOP);
    await createOrderStateRepository(a.s.t.db).save(shop.id, answered.orderId!, { name: "#1042" });
    await page.locator("ui-nav-menu a", { hasText: "Surveys" }).click();
    await page.getByText(`${state().nps.length} in total`).waitFor();
    await page.getByRole("cell", { name: "#1042", exact: true }).waitFor();
    await page.getByText("Partial answer").first().waitFor();
    await page.getByRole("table", { name: "Score distribution" }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, "surveys");
  }, 90_000);
});

describe("survey score", () => {
  it("GIVEN more answers than a page of the service's list THEN the score, its distribution and its months are of all of them", async () => {
    a.s.emu.control.seedNps({ customer: "acme", count: 130 });
    const answers = state().nps;
    expect(answers.length).toBeGreaterThan(100); // two pages and more of the emulator's 50
    const tab = await a.open();
    const { page } = tab;
    await tab.goto("/app/surveys");
    await page.getByText(`Of all ${answers.length} answers.`).waitFor();
    const ratings = answers.map((n) => n.rating);
    await page.getByText(`NPS ${npsOfRatings(ratings)}`, { exact: true }).waitFor();
    await page.getByText(`Promoters (9–10): ${ratings.filter((r) => r >= 9).length}`).waitFor();
    await page.getByText(`Detractors (0–6): ${ratings.filter((r) => r <= 6).length}`).waitFor();

    expect(await tableCells(page, "Score distribution")).toEqual(
      Array.from({ length: 11 }, (_, score) => [String(score), String(ratings.filter((r) => r === score).length)]),
    );

    const newest = answers
      .map((n) => n.created.slice(0, 7))
      .sort()
      .at(-1)!;
    expect(await tableCells(page, "NPS by month")).toEqual(
      twelveMonths(newest).map((month) => {
        const inMonth = answers.filter((n) => n.created.startsWith(month)).map((n) => n.rating);
        return [monthName(month), String(inMonth.length), inMonth.length ? String(npsOfRatings(inMonth)) : "–"];
      }),
    );
    // Each chart is a picture with a summary, and its table can be shown.
    expect(await page.getByRole("img", { name: /^Scores 0 to 10 of \d+ answers/ }).count()).toBe(1);
    expect(await page.getByRole("img", { name: /^NPS by month from/ }).count()).toBe(1);
    const show = page.getByRole("button", { name: "Show as table" }).last();
    await show.click();
    await page.getByRole("button", { name: "Hide table" }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, "surveys-charts");
  }, 90_000);
});

describe("report charts", () => {
  it("GIVEN reviews over a year THEN reviews by month, their average and the stars given match the service's reviews", async () => {
    const reviews = state().reviews;
    const tab = await a.open();
    const { page } = tab;
    await tab.goto("/app/report");
    await page.getByRole("table", { name: "Reviews by month" }).waitFor();
    const months = twelveMonths(
      reviews
        .map((r) => r.created.slice(0, 7))
        .sort()
        .at(-1)!,
    );
    const shown = await tableCells(page, "Reviews by month");
    expect(shown.map(([month, count]) => [month, count])).toEqual(
      months.map((m) => [monthName(m), String(reviews.filter((r) => r.created.startsWith(m)).length)]),
    );
    shown.forEach(([, , average], i) => {
      const ratings = reviews.filter((r) => r.created.startsWith(months[i]!)).map((r) => r.rating);
      if (!ratings.length) return expect(average).toBe("–");
      // The service's per-product averages come rounded to hundredths: a tenth shown may differ by one.
      expect(Math.abs(Number(average) - ratings.reduce((x, y) => x + y, 0) / ratings.length)).toBeLessThanOrEqual(0.06);
    });
    const inWindow = reviews.filter((r) => r.created.slice(0, 7) >= months[0]!);
    expect(await tableCells(page, "Ratings given")).toEqual(
      [5, 4, 3, 2, 1].map((n) => [`${n} ★`, String(inWindow.filter((r) => r.rating === n).length)]),
    );
    expect(await page.getByRole("img", { name: new RegExp(`^${inWindow.length} reviews from`) }).count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, "report-charts");

    // The report's filters apply: three months, published reviews only.
    await tab.goto("/app/report?dateFrom=2026-03-10&dateTo=2026-05-31&onlyPublished=true");
    await page.getByRole("table", { name: "Reviews by month" }).waitFor();
    const published = reviews.filter(
      (r) => r.status === "published" && r.created >= "2026-03-10" && r.created < "2026-06-01",
    );
    expect((await tableCells(page, "Reviews by month")).map(([month, count]) => [month, count])).toEqual(
      ["2026-03", "2026-04", "2026-05"].map((m) => [
        monthName(m),
        String(published.filter((r) => r.created.startsWith(m)).length),
      ]),
    );
    expect(await tableCells(page, "Ratings given")).toEqual(
      [5, 4, 3, 2, 1].map((n) => [`${n} ★`, String(published.filter((r) => r.rating === n).length)]),
    );
  }, 90_000);
});
