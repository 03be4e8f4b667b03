import { readdirSync, readFileSync } from "node:fs";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BACKEND_PATH,
  loadCustomerReviews,
  pagesFor,
  rowsForBlock,
  starsText,
  type CustomerReviewsAnswer,
} from "./customer-reviews";

// The block's logic without Shopify's runtime: the backend call against a real HTTP server (what it
// asks, how each answer is read) and what each row shows; and that every string it shows is in the
// three languages.

let origin = "";
let answer: { status: number; body: string } = { status: 200, body: "{}" };
const seen: IncomingMessage[] = [];
const server = createServer((req, res) => {
  seen.push(req);
  res.writeHead(answer.status, { "Content-Type": "application/json" }).end(answer.body);
});
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

// The admin resolves the relative path against the app's URL: here, the test server.
const adminFetch = (url: string, init: RequestInit) => fetch(`${origin}${url}`, init);
const load = (customer = "gid://shopify/Customer/7412345678901", page = 2) =>
  loadCustomerReviews({ customer, page, fetch: adminFetch });

const page: CustomerReviewsAnswer = {
  reviews: [
    {
      id: "674a1f0c2b9e4d0012ab34cd",
      status: "pending",
      rating: 4,
      product: { id: "8100000000007", title: "Linen shirt" },
      submittedAt: "2026-11-26T10:15:00.000Z",
    },
    {
      id: "674a1e982b9e4d0012ab34c1",
      status: "removed",
      rating: 1,
      product: { id: "8100000000014", title: null },
      submittedAt: "not a date",
    },
    {
      id: "674a1e982b9e4d0012ab34c2",
      status: "archived",
      rating: 5,
      product: { id: "8100000000021", title: "Canvas tote" },
      submittedAt: "2026-11-20T08:00:00.000Z",
    },
  ],
  page: 2,
  hasNext: true,
  unavailable: 0,
};

describe("the customer reviews block", () => {
  it("GIVEN the customer's page THEN it asks the backend for that customer and page, and reads the answer", async () => {
    answer = { status: 200, body: JSON.stringify(page) };
    expect(await load()).toEqual({ kind: "loaded", data: page });
    const req = seen.at(-1)!;
    expect(req.url).toBe(`${BACKEND_PATH}?customer=gid%3A%2F%2Fshopify%2FCustomer%2F7412345678901&page=2`);
    expect(req.headers.accept).toBe("application/json");
  });

  it("GIVEN a refusal with a reason THEN that reason; a 503 or no server THEN try later; else failed", async () => {
    answer = { status: 409, body: JSON.stringify({ error: "not_connected" }) };
    expect(await load()).toEqual({ kind: "failed", error: "not_connected" });
    answer = { status: 503, body: "" };
    expect(await load()).toEqual({ kind: "failed", error: "try_later" });
    answer = { status: 401, body: "" };
    expect(await load()).toEqual({ kind: "failed", error: "failed" });
    const down = await loadCustomerReviews({
      customer: "gid://shopify/Customer/1",
      page: 1,
      fetch: () => Promise.reject(new TypeError("fetch failed")),
    });
    expect(down).toEqual({ kind: "failed", error: "try_later" });
    expect(await loadCustomerReviews({ customer: "", page: 1, fetch: adminFetch })).toEqual({ kind: "unavailable" });
  });

  it("GIVEN a page of reviews THEN each row's status (translatable), tone, stars and date", () => {
    expect(rowsForBlock(page)).toEqual([
      {
        key: "674a1f0c2b9e4d0012ab34cd",
        title: "Linen shirt",
        productId: "8100000000007",
        statusKey: "status.pending",
        tone: "info",
        rating: 4,
        stars: "★★★★☆",
        submittedAt: new Date("2026-11-26T10:15:00.000Z"),
      },
      {
        key: "674a1e982b9e4d0012ab34c1",
        title: null,
        productId: "8100000000014",
        statusKey: "status.removed",
        tone: "critical",
        rating: 1,
        stars: "★☆☆☆☆",
        submittedAt: null,
      },
      expect.objectContaining({ statusKey: "status.unknown", tone: "neutral" }),
    ]);
    expect(starsText(7)).toBe("★★★★★");
    expect(pagesFor(page)).toEqual({ previous: 1, next: 3 });
    expect(pagesFor({ page: 1, hasNext: false })).toEqual({ previous: null, next: null });
  });

  it("GIVEN its locales THEN every string the block uses is there in English, Portuguese and Spanish", () => {
    const dir = join(__dirname, "..");
    const keys = (o: unknown, prefix = ""): string[] =>
      Object.entries(o as Record<string, unknown>).flatMap(([k, v]) =>
        typeof v === "object" && v && !("other" in v) ? keys(v, `${prefix}${k}.`) : [`${prefix}${k}`],
      );
    const locales = Object.fromEntries(
      readdirSync(join(dir, "locales")).map((f) => [
        f,
        keys(JSON.parse(readFileSync(join(dir, "locales", f), "utf8"))),
      ]),
    );
    expect(Object.keys(locales).sort()).toEqual(["en.default.json", "es.json", "pt-BR.json"]);
    for (const list of Object.values(locales)) expect(list.sort()).toEqual(locales["en.default.json"]!.sort());
    const source = readFileSync(join(dir, "src", "CustomerReviewsBlock.tsx"), "utf8");
    const used = [...source.matchAll(/\bt\("([^"]+)"/g)].map((m) => m[1]!);
    const dynamic = [
      ...rowsForBlock(page).map((r) => r.statusKey),
      "status.published",
      "status.filtered",
      "error.not_connected",
      "error.try_later",
      "error.failed",
    ];
    expect(used.length).toBeGreaterThan(8);
    for (const key of [...used, ...dynamic]) expect(locales["en.default.json"]).toContain(key);
  });
});
