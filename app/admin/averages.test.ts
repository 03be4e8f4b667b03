import { describe, expect, it } from "vitest";
import { averageFormatter } from "./averages";

describe("rating averages", () => {
  it("GIVEN an average THEN it shows one decimal in the admin's language", () => {
    expect(averageFormatter("en")(4.25)).toBe("4.3");
    expect(averageFormatter("en")(4)).toBe("4.0");
    expect(averageFormatter("pt-BR")(4.5)).toBe("4,5");
    expect(averageFormatter("es")(3.666666)).toBe("3,7");
  });

  it("GIVEN no average THEN a dash", () => {
    expect(averageFormatter("en")(null)).toBe("–");
  });
});
