import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../../test/helpers/stack";
import { eventually } from "../../test/helpers/contexts";
import { keyFrom } from "../../app/.server/crypto/secret-box";
import { type PendingPayload } from "../../app/.server/pending-reviews/pending-reviews";
import { ReviewsError, type ReviewsClient } from "../../app/.server/reviews";
import { keepPendingReview } from "../../app/.server/pending-reviews";

// Kept writes to one busy product, sent again exactly once: the service stored every review and
// question but each answer was lost on the way back (the emulator closes the connection after
// doing the work), so the app kept them all as "outcome unknown". The emulator answers its admin
// lists 20 a page (the spec states no page size), so the look-up must page past the first page to
// find the older ones. Real HTTP, real Redis, the real worker; both with the emulator's extra
// fields and with the documented fields only.

const SHOP = "kept-writes.myshopify.com";
const SKU = "8800001";
const REVIEWS = 80;
const QUESTIONS = 30;

describe.each([
  { mode: "extended", strict: false },
  { mode: "strict", strict: true },
])("kept writes against a service answering 20 a page ($mode)", ({ strict }) => {
  let s: Stack;
  let client: ReviewsClient;

  beforeAll(async () => {
    s = await startStack(
      `kept-${strict ? "strict" : "ext"}`,
      // Short, so the few calls that wait it out keep the file quick; 300 ms cut some writes off
      // before they reached the service on a loaded machine, and the tests need those stored (a
      // lost answer closes the connection at once, it does not wait for the limit).
      { REVIEWS_TIMEOUT_MS: "1500", JOB_BACKOFF_MS: "50" },
      { emulator: { strict, adminPageSize: 20 } },
    );
    await s.connect(SHOP);
    client = await s.worker.reviewsFor(SHOP);
    await client.admin.sendCatalogBatch([{ sku: SKU, name: "Busy product", categories: ["General"] }]);
  }, 60_000);
  afterAll(() => s?.close());

  /** The shopper's write reaches the service, its answer does not (a retryable failure to the app). */
  async function lostAnswer(send: () => Promise<unknown>) {
    const error = await send().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ReviewsError);
    expect((error as ReviewsError).kind).toBe("retryable");
  }

  /** Kept as the write path keeps it: sealed in the database, a job on the maintenance queue. */
  const keep = (submission: PendingPayload) =>
    keepPendingReview(
      { db: s.web.db, queues: s.web.queues, key: keyFrom(s.config.ENCRYPTION_KEY) },
      { shop: SHOP, sku: SKU, submission, outcomeUnknown: true, error: "retryable" },
    );

  it(`GIVEN ${REVIEWS} reviews and ${QUESTIONS} questions stored but unanswered THEN after the worker each is at the service exactly once`, async () => {
    s.emu.control.setFaults({ loseAnswerNext: REVIEWS + QUESTIONS, paths: `^/api/acme/${SKU}/(review|question)$` });
    const kept: PendingPayload[] = [];
    for (let i = 0; i < REVIEWS; i++) {
      const submission = {
        userId: `shopper-${i}`,
        email: `shopper${i}@example.com`,
        rating: 1 + (i % 5),
        text: `Kept review ${i}`,
      };
      await lostAnswer(() => client.storefront.submitReview(SKU, submission));
      kept.push(submission);
    }
    for (let i = 0; i < QUESTIONS; i++) {
      const question = { userId: `asker-${i}`, email: `Asker${i}@Example.com`, text: `Kept question ${i}?` };
      await lostAnswer(() => client.storefront.askQuestion(SKU, question));
      kept.push({ question });
    }
    s.emu.control.clearFaults();
    const state = () => s.emu.control.state("acme");
    expect(state().reviews).toHaveLength(REVIEWS);
    expect(state().questions).toHaveLength(QUESTIONS);
    const since = s.emu.control.lastRequestSeq();
    // Kept in the order they were written: the oldest, at the end of the product's list, first.
    for (const k of kept) await keep(k);

    await eventually(
      () => s.web.db.pendingReview.count(),
      (n) => n === 0,
      100_000,
    );
    await s.idle();

    for (let i = 0; i < REVIEWS; i++)
      expect(
        state().reviews.filter((r) => r.text === `Kept review ${i}`),
        `review ${i}`,
      ).toHaveLength(1);
    for (let i = 0; i < QUESTIONS; i++)
      expect(
        state().questions.filter((q) => q.text === `Kept question ${i}?`),
        `question ${i}`,
      ).toHaveLength(1);
    const after = s.emu.control.requests(since);
    expect(after.filter((r) => r.method === "POST" && /\/(review|question)$/.test(r.path))).toEqual([]);
    // The oldest writes sit past the first page: the look-ups read further with `skip`.
    expect(
      after.filter((r) => r.path === "/api/acme/reviews/all" && Number(r.query.skip ?? 0) >= 60).length,
    ).toBeGreaterThan(0);
    expect(
      after.filter((r) => r.path === "/api/acme/questions/all" && Number(r.query.skip ?? 0) >= 20).length,
    ).toBeGreaterThan(0);
    // 110 writes and their look-ups over HTTP: about 10 s alone, several times that beside other
    // test files on two shared cores.
  }, 120_000);

  it("GIVEN a kept review the service never received THEN the look-up reads past the kept write's time, stops, and sends it once", async () => {
    const submission = { userId: "late", email: "late@example.com", rating: 5, text: "Never arrived" };
    s.emu.control.setFaults({ failNext: { count: 1, status: 503 }, paths: `^/api/acme/${SKU}/review$` });
    await lostAnswer(() => client.storefront.submitReview(SKU, submission));
    s.emu.control.clearFaults();
    const since = s.emu.control.lastRequestSeq();
    await keep(submission);
    await eventually(
      () => s.web.db.pendingReview.count(),
      (n) => n === 0,
      30_000,
    );
    await s.idle();
    expect(s.emu.control.state("acme").reviews.filter((r) => r.text === "Never arrived")).toHaveLength(1);
    // Every stored review is older than this kept write (less the clocks' margin, they are all
    // within it here): the look-up reads to the end of that product's list and no further.
    const lists = s.emu.control.requests(since).filter((r) => r.path === "/api/acme/reviews/all");
    expect(lists.length).toBeLessThanOrEqual(Math.ceil((REVIEWS + 1) / 20));
  });
});
