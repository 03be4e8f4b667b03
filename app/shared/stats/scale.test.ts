import { describe, expect, it } from "vitest";
import { niceTop } from "./scale";

describe("count axis", () => {
  it("GIVEN the largest value THEN the axis ends at the next 1, 2 or 5 times a power of ten", () => {
    expect([0, 1, 3, 7, 10, 11, 26, 199, 5000, 5001, 0.3].map(niceTop)).toEqual([
      1, 1, 5, 10, 10, 20, 50, 200, 5000, 10000, 0.5,
    ]);
  });
});
