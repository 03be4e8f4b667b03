import { describe, expect, it } from "vitest";
import { groupsOf, histogramOf, npsByMonth, npsOf } from "./nps";

describe("net promoter score", () => {
  it("GIVEN scores THEN the histogram counts each of 0 to 10 and leaves out what is not a score", () => {
    expect(histogramOf([10, 10, 9, 0, 7, null, undefined, 11, -1, 6.5])).toEqual([1, 0, 0, 0, 0, 0, 0, 1, 0, 1, 2]);
  });

  it("GIVEN a histogram THEN the groups are 9–10, 7–8 and 0–6", () => {
    expect(groupsOf([1, 1, 1, 1, 1, 1, 1, 2, 3, 4, 5])).toEqual({ promoters: 9, neutral: 5, detractors: 7 });
  });

  it("GIVEN groups THEN the score is promoters' share less detractors', in whole points", () => {
    expect(npsOf({ promoters: 5, neutral: 3, detractors: 2 })).toBe(30);
    expect(npsOf({ promoters: 0, neutral: 0, detractors: 4 })).toBe(-100);
    expect(npsOf({ promoters: 1, neutral: 1, detractors: 1 })).toBe(0);
    expect(Object.is(npsOf({ promoters: 1, neutral: 998, detractors: 2 }), -0)).toBe(false);
    expect(npsOf({ promoters: 2, neutral: 1, detractors: 0 })).toBe(67);
    expect(npsOf({ promoters: 0, neutral: 0, detractors: 0 })).toBeNull();
  });

  it("GIVEN answers over months THEN each month asked has its own score, an empty one none", () => {
    const answers = [
      { rating: 10, created: "2026-01-31T23:59:59.000Z" },
      { rating: 3, created: "2026-01-01T00:00:00.000Z" },
      { rating: 9, created: "2026-03-10T10:00:00.000Z" },
      { rating: 8, created: "2026-03-11T10:00:00.000Z" },
      { rating: 10, created: "2025-12-31T23:59:59.000Z" },
      { rating: null, created: "2026-03-12T10:00:00.000Z" },
      { rating: 9, created: "not a date" },
    ];
    expect(npsByMonth(answers, ["2026-01", "2026-02", "2026-03"])).toEqual([
      { month: "2026-01", answers: 2, nps: 0 },
      { month: "2026-02", answers: 0, nps: null },
      { month: "2026-03", answers: 2, nps: 50 },
    ]);
  });
});
