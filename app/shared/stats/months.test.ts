import { describe, expect, it } from "vitest";
import { daysOf, monthLabel, monthOf, monthsBetween, monthsEnding } from "./months";

describe("calendar months", () => {
  it("GIVEN a date THEN its UTC month, and none for what is not a date", () => {
    expect(monthOf("2026-02-28T23:59:59.999Z")).toBe("2026-02");
    expect(monthOf("2026-03-01T00:00:00-03:00")).toBe("2026-03");
    expect(monthOf(new Date(Date.UTC(2025, 11, 31)))).toBe("2025-12");
    expect(monthOf("yesterday")).toBeNull();
    expect(monthOf(null)).toBeNull();
  });

  it("GIVEN a last month THEN the months before it, across a year, oldest first", () => {
    expect(monthsEnding("2026-02", 4)).toEqual(["2025-11", "2025-12", "2026-01", "2026-02"]);
  });

  it("GIVEN a range of days THEN its months, the newest kept when there are too many", () => {
    expect(monthsBetween("2026-01-15", "2026-03-02", 12)).toEqual(["2026-01", "2026-02", "2026-03"]);
    expect(monthsBetween("2024-01-01", "2026-03-31", 3)).toEqual(["2026-01", "2026-02", "2026-03"]);
    expect(monthsBetween("2026-04-01", "2026-03-31", 12)).toEqual([]);
  });

  it("GIVEN a month THEN its first and last day, narrowed to a range", () => {
    expect(daysOf("2024-02")).toEqual({ from: "2024-02-01", to: "2024-02-29" });
    expect(daysOf("2026-12")).toEqual({ from: "2026-12-01", to: "2026-12-31" });
    expect(daysOf("2026-01", { from: "2026-01-15", to: "2026-03-02" })).toEqual({
      from: "2026-01-15",
      to: "2026-01-31",
    });
    expect(daysOf("2026-03", { from: "2026-01-15", to: "2026-03-02" })).toEqual({
      from: "2026-03-01",
      to: "2026-03-02",
    });
  });

  it("GIVEN a locale THEN the month is named in it", () => {
    expect(monthLabel("2026-03", "en", "long")).toBe("March 2026");
    expect(monthLabel("2026-03", "pt-BR", "long")).toBe("março de 2026");
    expect(monthLabel("2026-03", "es", "long")).toBe("marzo de 2026");
  });
});
