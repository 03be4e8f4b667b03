import { describe, expect, it } from "vitest";
import { averageRating, sinceDay } from "./key-figures";

describe("averageRating", () => {
  it("GIVEN counts of reviews per star THEN the average is weighted by them", () => {
    expect(averageRating([0, 0, 0, 1, 1])).toBe(4.5);
    expect(averageRating([1, 0, 0, 0, 2])).toBeCloseTo(11 / 3);
    expect(averageRating([0, 0, 0, 0, 7])).toBe(5);
  });

  it("GIVEN no reviews THEN there is no average (not zero stars)", () => {
    expect(averageRating([0, 0, 0, 0, 0])).toBeNull();
    expect(averageRating([])).toBeNull();
  });
});

describe("sinceDay", () => {
  it("GIVEN a moment THEN the window's first UTC day counts today as one of the 30", () => {
    expect(sinceDay(new Date("2026-11-26T08:00:00Z"))).toBe("2026-10-28");
    expect(sinceDay(new Date("2026-03-01T23:59:59Z"), 1)).toBe("2026-03-01");
  });
});
