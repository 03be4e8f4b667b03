import { describe, expect, it } from "vitest";
import { formatMoney } from "./money";

describe("formatMoney (Shopify's money filter)", () => {
  it("GIVEN each of Shopify's placeholders THEN the amount is grouped and separated as Shopify prints it", () => {
    const cases: [string, string][] = [
      ["${{amount}}", "$1,134.65"],
      ["{{amount_no_decimals}} kr", "1,135 kr"],
      ["R$ {{amount_with_comma_separator}}", "R$ 1.134,65"],
      ["{{amount_no_decimals_with_comma_separator}} €", "1.135 €"],
      ["CHF {{amount_with_apostrophe_separator}}", "CHF 1'134.65"],
      ["{{amount_no_decimals_with_space_separator}} Ft", "1 135 Ft"],
      ["{{amount_with_space_separator}} €", "1 134,65 €"],
      ["{{ amount_with_period_and_space_separator }} zł", "1 134.65 zł"],
    ];
    for (const [format, printed] of cases) expect(formatMoney(113465, format)).toBe(printed);
  });

  it("GIVEN small and missing amounts or formats THEN they print without surprises", () => {
    expect(formatMoney(2800, "R$ {{amount_with_comma_separator}}")).toBe("R$ 28,00");
    expect(formatMoney(2800, undefined)).toBe("$28.00");
    expect(formatMoney(Number.NaN, "${{amount}}")).toBe("$0.00");
  });
});
