import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type Emulator } from "../../../sandbox/emulator/server";
import { createReviewsClient } from "../reviews";
import { surveySummary } from "./survey-summary";

// The survey's summary read from the service page after page: over every answer when they fit the
// bound, and past it the score still of every answer (the groups' totals), the histogram of the newest.

const account = { customer: "demo-store", clientId: "demo-client", clientSecret: "demo-secret" };
const clientOf = (emu: Emulator) =>
  createReviewsClient({ account: { ...account, apiUrl: emu.baseUrl, authUrl: emu.authUrl, rateUrl: emu.rateUrl } });

let pagesOf20: Emulator;
let pagesOf1: Emulator;
beforeAll(async () => {
  // Strict: only the documented fields; page sizes the spec leaves open.
  [pagesOf20, pagesOf1] = await Promise.all([
    startEmulator({ seed: true, strict: true, adminPageSize: 20 }),
    startEmulator({ seed: true, strict: true, adminPageSize: 1 }),
  ]);
  for (const emu of [pagesOf20, pagesOf1]) emu.control.seedNps({ customer: account.customer, count: 130 });
});
afterAll(async () => {
  await Promise.all([pagesOf20?.close(), pagesOf1?.close()]);
});

const counts = (ratings: number[]) => ({
  promoters: ratings.filter((r) => r >= 9).length,
  neutral: ratings.filter((r) => r === 7 || r === 8).length,
  detractors: ratings.filter((r) => r <= 6).length,
});

describe("survey summary", () => {
  it("GIVEN answers over several pages THEN the histogram, groups, score and months are of all of them", async () => {
    const answers = pagesOf20.control.state(account.customer).nps;
    expect(answers.length).toBe(140);
    const ratings = answers.map((a) => a.rating);
    const s = await surveySummary(clientOf(pagesOf20));
    expect(s).toMatchObject({ total: 140, read: 140, groups: counts(ratings) });
    expect(s.histogram).toEqual(Array.from({ length: 11 }, (_, n) => ratings.filter((r) => r === n).length));
    const g = counts(ratings);
    expect(s.nps).toBe(Math.round(((g.promoters - g.detractors) / 140) * 100));
    expect(s.months).toHaveLength(12);
    expect(s.months.at(-1)!.month).toBe(
      answers
        .map((a) => a.created.slice(0, 7))
        .sort()
        .at(-1),
    );
    for (const m of s.months) expect(m.answers).toBe(answers.filter((a) => a.created.startsWith(m.month)).length);
  });

  it("GIVEN more pages than the bound THEN the score and groups still count every answer, the histogram the newest read", async () => {
    const answers = pagesOf1.control.state(account.customer).nps;
    const s = await surveySummary(clientOf(pagesOf1));
    expect(s.total).toBe(140);
    expect(s.read).toBe(100);
    expect(s.histogram.reduce((a, b) => a + b, 0)).toBe(100);
    const g = counts(answers.map((a) => a.rating));
    expect(s.groups).toEqual(g);
    expect(s.nps).toBe(Math.round(((g.promoters - g.detractors) / 140) * 100));
    const newest = [...answers].sort((a, b) => (a.created < b.created ? 1 : -1)).slice(0, 100);
    expect(s.histogram).toEqual(Array.from({ length: 11 }, (_, n) => newest.filter((a) => a.rating === n).length));
  });
});
