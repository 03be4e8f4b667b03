import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type Emulator } from "../../../sandbox/emulator/server";
import { createReviewsClient, type ReviewsClient } from "../reviews";
import { feedMemoryOf } from "./backsync-state.repository";
import {
  FIRST_READ,
  KNOWN_RUN,
  SEEN_MAX,
  changedProducts,
  readReviewChanges,
  unknownProducts,
  type FeedMemory,
} from "./review-feed";

// The review-change feed against the emulator over HTTP, answering 20 reviews a page, in both of
// its modes: with its own `moderatedAt` on each review (a shortcut the feed may take) and strict
// (the documented fields only: id and status are all the feed has). A first read, moderations
// spread over several pages, a moderation landing between two page reads, a review moderated again,
// and the memory's bound.

describe.each([
  { mode: "extended", strict: false },
  { mode: "strict", strict: true },
])("review-change feed ($mode)", ({ strict }) => {
  let emu: Emulator;
  let client: ReviewsClient;
  const customer = "feed";
  const pending: string[] = [];
  let memory: FeedMemory;

  const submit = async (i: number) =>
    (
      await client.storefront.submitReview(`sku-${i % 6}`, {
        userId: `u${i}`,
        email: `u${i}@example.com`,
        rating: 1 + (i % 5),
      })
    )._id;
  const approve = (id: string) => {
    emu.control.advanceClock(1000);
    emu.control.publishReview(id);
  };
  const ids = (r: { changes: { _id: string }[] }) => r.changes.map((c) => c._id).sort();

  beforeAll(async () => {
    emu = await startEmulator({
      port: 0,
      strict,
      adminPageSize: 20,
      accounts: [{ customer, clientId: "feed-client", clientSecret: "feed-secret-0123456789" }],
    });
    client = createReviewsClient({
      account: {
        customer,
        clientId: "feed-client",
        clientSecret: "feed-secret-0123456789",
        apiUrl: emu.baseUrl,
        authUrl: emu.authUrl,
        rateUrl: emu.rateUrl,
      },
    });
    await client.admin.sendCatalogBatch(
      Array.from({ length: 6 }, (_, i) => ({ sku: `sku-${i}`, name: `Product ${i}`, categories: ["General"] })),
    );
    // 120 moderated reviews of history, 30 waiting for moderation.
    for (let i = 0; i < 150; i++) {
      const id = await submit(i);
      if (i >= 120) pending.push(id);
      else approve(id);
    }
  });
  afterAll(async () => {
    await emu.close();
  });

  it("GIVEN no memory THEN nothing is replayed and the top of the list is remembered", async () => {
    const read = await readReviewChanges(client.admin, null);
    expect(read.changes).toEqual([]);
    expect(read.memory.seen.length).toBeGreaterThanOrEqual(FIRST_READ);
    const newest = emu.control
      .state(customer)
      .reviews.map((r) => r.moderatedAt ?? "")
      .sort()
      .at(-1)!;
    expect(read.memory.cursor).toBe(strict ? null : newest);
    memory = read.memory;
  });

  it("GIVEN nothing moderated since THEN a read is one page and finds nothing", async () => {
    const read = await readReviewChanges(client.admin, memory);
    expect(read).toMatchObject({ changes: [], pages: 1 });
    memory = read.memory;
  });

  it("GIVEN one approval THEN it is the one change, read from the first page", async () => {
    const id = pending.shift()!;
    approve(id);
    const read = await readReviewChanges(client.admin, memory);
    expect(ids(read)).toEqual([id]);
    expect(read.pages).toBe(1);
    memory = read.memory;
    expect(memory.seen[0]).toBe(`${id}:published`);
  });

  it("GIVEN 25 approvals and a rejection of an old review THEN each is one change, over several pages", async () => {
    const approved = pending.splice(0, 25);
    for (const id of approved) approve(id);
    const old = emu.control.state(customer).reviews.find((r) => r.status === "published")!;
    emu.control.advanceClock(1000);
    await client.admin.moderateReview(old._id, false);
    const read = await readReviewChanges(client.admin, memory);
    expect(ids(read)).toEqual([...approved, old._id].sort());
    expect(read.pages).toBeGreaterThanOrEqual(2);
    expect(read.changes.find((r) => r._id === old._id)!.status).toBe("removed");
    expect(changedProducts(read.changes).length).toBeGreaterThan(1);
    memory = read.memory;
  });

  it("GIVEN moderations landing between two page reads THEN none is lost: what this read missed, the next one finds", async () => {
    const before = pending.splice(0, 2);
    for (const id of before) approve(id);
    const during: string[] = [];
    let pageReads = 0;
    const racing = {
      async listReviews(...args: Parameters<ReviewsClient["admin"]["listReviews"]>) {
        const page = await client.admin.listReviews(...args);
        if (pageReads++ === 0) {
          // The merchant approves another one and rejects an old one right after the first page.
          const id = pending.shift()!;
          approve(id);
          const old = emu.control
            .state(customer)
            .reviews.find((r) => r.status === "published" && !before.includes(r._id) && r._id !== id)!;
          emu.control.advanceClock(1000);
          await client.admin.moderateReview(old._id, false);
          during.push(id, old._id);
        }
        return page;
      },
    };
    const first = await readReviewChanges(racing, memory);
    for (const id of before) expect(ids(first)).toContain(id);
    const second = await readReviewChanges(client.admin, first.memory);
    const seenEither = new Set([...ids(first), ...ids(second)]);
    for (const id of during) expect(seenEither.has(id)).toBe(true);
    memory = second.memory;
    expect((await readReviewChanges(client.admin, memory)).changes).toEqual([]);
  });

  it(`GIVEN fewer than ${KNOWN_RUN} reviews moderated again with the same status above a real change THEN the change is still found`, async () => {
    const top = emu.control
      .state(customer)
      .reviews.filter((r) => r.status === "published")
      .slice(0, KNOWN_RUN - 1);
    const id = pending.shift()!;
    approve(id);
    for (const r of top) approve(r._id);
    const read = await readReviewChanges(client.admin, memory);
    expect(ids(read)).toContain(id);
    memory = read.memory;
  });

  it("GIVEN many reads THEN the memory stays within its bound and survives the database round trip", async () => {
    expect(memory.seen.length).toBeLessThanOrEqual(SEEN_MAX);
    expect(new Set(memory.seen.map((k) => k.split(":")[0])).size).toBe(memory.seen.length);
    const stored = feedMemoryOf({ cursor: memory.cursor, feedSeen: JSON.stringify(memory.seen) });
    expect(stored).toEqual(memory);
    // A row from before the memory: a real cursor still reads by time; the epoch starts afresh.
    expect(feedMemoryOf({ cursor: "2026-01-01T00:00:00.000Z", feedSeen: null })).toEqual({
      cursor: "2026-01-01T00:00:00.000Z",
      seen: [],
    });
    expect(feedMemoryOf({ cursor: new Date(0).toISOString(), feedSeen: null })).toBeNull();
  });

  it("GIVEN a product the service lost THEN the change of its review names it unknown (product null), the others not", async () => {
    emu.control.addAccount({ customer: "feed-lost", clientId: "l-client", clientSecret: "l-secret-0123456789" });
    const lost = createReviewsClient({
      account: {
        customer: "feed-lost",
        clientId: "l-client",
        clientSecret: "l-secret-0123456789",
        apiUrl: emu.baseUrl,
        authUrl: emu.authUrl,
        rateUrl: emu.rateUrl,
      },
    });
    await lost.admin.sendCatalogBatch([
      { sku: "l-1", name: "Lost 1", categories: ["General"] },
      { sku: "l-2", name: "Kept 2", categories: ["General"] },
    ]);
    const waiting = await Promise.all(
      ["l-1", "l-2"].map(
        async (sku, i) =>
          (await lost.storefront.submitReview(sku, { userId: `l${i}`, email: `l${i}@example.com`, rating: 5 }))._id,
      ),
    );
    const first = await readReviewChanges(lost.admin, null);
    emu.control.forget("feed-lost", { skus: ["l-1"] });
    waiting.forEach(approve);
    const read = await readReviewChanges(lost.admin, first.memory);
    expect(changedProducts(read.changes).sort()).toEqual(["l-1", "l-2"]);
    expect(unknownProducts(read.changes)).toEqual(["l-1"]);
  });

  it("GIVEN an account without moderations THEN the first moderation after the first read is a change", async () => {
    emu.control.addAccount({ customer: "feed-empty", clientId: "e-client", clientSecret: "e-secret-0123456789" });
    const empty = createReviewsClient({
      account: {
        customer: "feed-empty",
        clientId: "e-client",
        clientSecret: "e-secret-0123456789",
        apiUrl: emu.baseUrl,
        authUrl: emu.authUrl,
        rateUrl: emu.rateUrl,
      },
    });
    await empty.admin.sendCatalogBatch([{ sku: "e-1", name: "Empty 1", categories: ["General"] }]);
    const waiting = (await empty.storefront.submitReview("e-1", { userId: "e", email: "e@example.com", rating: 4 }))
      ._id;
    const first = await readReviewChanges(empty.admin, null);
    expect(first.memory).toEqual({ cursor: null, seen: [] });
    approve(waiting);
    expect(ids(await readReviewChanges(empty.admin, first.memory))).toEqual([waiting]);
  });
});

describe("review-change feed with never-moderated reviews sorted first", () => {
  // Where a review without a moderation sorts under `moderatedAt,-1` is not documented: a service
  // may put them first. They are neither changes nor part of a known run, so the feed reads past them.
  const review = (id: string, status: string) => ({ _id: id, sku: "1", rating: 4, status });
  let list = [
    ...Array.from({ length: 30 }, (_, i) => review(`p${i}`, "pending")),
    ...Array.from({ length: 40 }, (_, i) => review(`m${i}`, "published")),
  ];
  const admin = {
    async listReviews(q: { skip?: number } = {}) {
      const skip = q.skip ?? 0;
      return { results: list.slice(skip, skip + 20), total: list.length };
    },
  };

  it("GIVEN pending reviews on top THEN the first read remembers the moderated ones, and a later approval is the one change", async () => {
    const first = await readReviewChanges(admin, null);
    expect(first.memory.seen.every((k) => k.startsWith("m"))).toBe(true);
    expect(first.memory.seen.length).toBeGreaterThanOrEqual(KNOWN_RUN);
    // p3 approved: it leaves the pending block and tops the moderated ones.
    list = [
      ...list.filter((r) => r._id.startsWith("p") && r._id !== "p3"),
      review("p3", "published"),
      ...list.filter((r) => r._id.startsWith("m")),
    ];
    const next = await readReviewChanges(admin, first.memory);
    expect(next.changes.map((r) => r._id)).toEqual(["p3"]);
    expect((await readReviewChanges(admin, next.memory)).changes).toEqual([]);
  });
});
