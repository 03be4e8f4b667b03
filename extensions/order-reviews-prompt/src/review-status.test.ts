import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compiledAppUrl, itemsForBlock, loadFromBackend, starsText, type StatusOrder } from "./review-status";

// The blocks' logic without Shopify's runtime: the backend call against a real HTTP server (what it
// sends, how each answer is read), and what the blocks list from an order's status.

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

const call = (over: Partial<Parameters<typeof loadFromBackend>[0]> = {}) =>
  loadFromBackend({
    appUrl: `${origin}/`,
    path: "/extensions/order-status",
    order: "gid://shopify/Order/5900000000001",
    getToken: async () => "token-1",
    fetch,
    ...over,
  });

const order: StatusOrder = {
  id: "5900000000001",
  name: "#1002",
  date: "2026-11-20T14:03:00Z",
  toRate: 1,
  fulfilled: true,
  more: null,
  hiddenToRate: [],
  items: [
    {
      sku: "1",
      title: "Mug",
      url: null,
      image: null,
      state: "reviewed",
      review: { rating: 4, text: "Nice" },
      rate: null,
    },
    {
      sku: "2",
      title: "Tee",
      url: null,
      image: null,
      state: "rate",
      review: null,
      rate: {
        order: "5900000000001",
        token: "t",
        sku: "2",
        href: "https://rate.example/rate/acme/t/5900000000001?sku=2",
      },
    },
    { sku: "3", title: "Cap", url: null, image: null, state: "waiting", review: null, rate: null },
    { sku: null, title: "Gift wrap", url: null, image: null, state: "none", review: null, rate: null },
  ],
};

describe("the backend call", () => {
  it("sends a fresh session token as a bearer token, the order in the query, and reads the JSON answer", async () => {
    answer = { status: 200, body: JSON.stringify({ order }) };
    expect(await call()).toEqual({ kind: "loaded", data: { order } });
    const req = seen.at(-1)!;
    expect(req.url).toBe("/extensions/order-status?order=gid%3A%2F%2Fshopify%2FOrder%2F5900000000001");
    expect(req.headers.authorization).toBe("Bearer token-1");
  });

  it("tells a refusal (no retry) from an outage (retry), and never throws", async () => {
    answer = { status: 403, body: "{}" };
    expect(await call()).toEqual({ kind: "failed", retry: false });
    answer = { status: 503, body: "{}" };
    expect(await call()).toEqual({ kind: "failed", retry: true });
    expect(await call({ getToken: async () => Promise.reject(new Error("no token")) })).toEqual({
      kind: "failed",
      retry: true,
    });
    expect(await call({ appUrl: "http://127.0.0.1:1" })).toEqual({ kind: "failed", retry: true });
  });

  it("asks nothing when the build had no app address or the page no order", async () => {
    const before = seen.length;
    expect(await call({ appUrl: undefined })).toEqual({ kind: "unavailable" });
    expect(await call({ order: "" })).toEqual({ kind: "unavailable" });
    expect(seen.length).toBe(before);
  });
});

describe("what the blocks show", () => {
  it("lists the products to rate, those to rate once they arrive, then the rated ones; items the service does not list are left out", () => {
    const { toRate, waiting, rated } = itemsForBlock(order);
    expect(toRate.map((i) => i.title)).toEqual(["Tee"]);
    expect(waiting.map((i) => i.title)).toEqual(["Cap"]);
    expect(rated.map((i) => i.title)).toEqual(["Mug"]);
  });

  it("draws a rating as five stars, bounded", () => {
    expect(starsText(4)).toBe("★★★★☆");
    expect(starsText(0)).toBe("☆☆☆☆☆");
    expect(starsText(9)).toBe("★★★★★");
  });

  it("reads the app address the CLI compiled in, and none when the build had it not", () => {
    expect(compiledAppUrl(() => "https://reviews.example.com")).toBe("https://reviews.example.com");
    expect(compiledAppUrl(() => "")).toBeUndefined();
    expect(
      compiledAppUrl(() => {
        throw new ReferenceError("process is not defined");
      }),
    ).toBeUndefined();
  });
});
