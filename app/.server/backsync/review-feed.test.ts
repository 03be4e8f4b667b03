import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type Emulator } from "../../../test/emulator/server";
import { createReviewsClient, type ReviewsClient } from "../reviews";
import { EPOCH_CURSOR, changedProducts, readReviewChanges } from "./review-feed";

// The review-change feed against the emulator over HTTP (its listing pages 50 reviews): a cursor in
// the middle of several pages, a first run, and a moderation landing between two page reads.

let emu: Emulator;
let client: ReviewsClient;
const customer = "feed";
const approved: { id: string; sku: string; at: string }[] = [];
const pending: string[] = [];

beforeAll(async () => {
  emu = await startEmulator({ port: 0, accounts: [{ customer, clientId: "feed-client", clientSecret: "feed-secret-0123456789" }] });
  client = createReviewsClient({
    account: { customer, clientId: "feed-client", clientSecret: "feed-secret-0123456789", apiUrl: emu.baseUrl, authUrl: emu.authUrl, rateUrl: emu.rateUrl },
  });
  await client.admin.sendCatalogBatch(Array.from({ length: 6 }, (_, i) => ({ sku: `sku-${i}`, name: `Product ${i}`, categories: ["General"] })));
  for (let i = 0; i < 130; i++) {
    const r = await client.storefront.submitReview(`sku-${i % 6}`, { userId: `u${i}`, email: `u${i}@example.com`, rating: 1 + (i % 5) });
    if (i >= 120) {
      pending.push(r._id);
      continue;
    }
    emu.control.advanceClock(1000);
    approved.push({ id: r._id, sku: r.sku ?? `sku-${i % 6}`, at: emu.control.publishReview(r._id).moderatedAt! });
  }
});
afterAll(async () => {
  await emu.close();
});

describe("review-change feed", () => {
  it("GIVEN no cursor THEN nothing is replayed and the cursor starts at the newest moderation", async () => {
    const read = await readReviewChanges(client.admin, null);
    expect(read).toMatchObject({ changes: [], cursor: approved.at(-1)!.at, pages: 1 });
  });

  it("GIVEN a cursor 100 moderations back THEN every review moderated since is read once over several pages", async () => {
    const since = approved[19].at;
    const read = await readReviewChanges(client.admin, since);
    expect(read.pages).toBeGreaterThanOrEqual(3);
    expect(read.changes.map((r) => r._id).sort()).toEqual(approved.slice(19).map((a) => a.id).sort());
    expect(read.cursor).toBe(approved.at(-1)!.at);
    expect(changedProducts(read.changes).sort()).toEqual(["sku-0", "sku-1", "sku-2", "sku-3", "sku-4", "sku-5"]);
  });

  it("GIVEN moderations land between two page reads THEN no review moderated before them is lost", async () => {
    const since = approved[0].at;
    let pageReads = 0;
    const moderatedDuring: string[] = [];
    const racing = {
      async listReviews(...args: Parameters<ReviewsClient["admin"]["listReviews"]>) {
        const page = await client.admin.listReviews(...args);
        // After each page, a merchant approves another pending review: everything shifts down one.
        if (pageReads++ < 3 && pending.length) {
          emu.control.advanceClock(1000);
          const id = pending.shift()!;
          emu.control.publishReview(id);
          moderatedDuring.push(id);
        }
        return page;
      },
    };
    const read = await readReviewChanges(racing, since);
    const ids = new Set(read.changes.map((r) => r._id));
    for (const a of approved) expect(ids.has(a.id)).toBe(true);
    expect(read.changes).toHaveLength(ids.size);
  });

  it("GIVEN an account without moderations THEN the cursor starts at the epoch, so the first moderation is a change", async () => {
    const empty = createReviewsClient({
      account: { customer: "feed-empty", clientId: "e-client", clientSecret: "e-secret-0123456789", apiUrl: emu.baseUrl, authUrl: emu.authUrl, rateUrl: emu.rateUrl },
    });
    emu.control.addAccount({ customer: "feed-empty", clientId: "e-client", clientSecret: "e-secret-0123456789" });
    expect((await readReviewChanges(empty.admin, null)).cursor).toBe(EPOCH_CURSOR);
  });
});
