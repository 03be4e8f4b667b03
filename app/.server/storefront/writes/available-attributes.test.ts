import { describe, expect, it } from "vitest";
import { attributesFor } from "./available-attributes";

const attr = (id: string, extra: Record<string, unknown>) => ({
  _id: id,
  title: `T${id}`,
  description: `D${id}`,
  customer: "acme",
  __v: 0,
  ...extra,
});

describe("attributesFor", () => {
  it("GIVEN attributes of several categories THEN only the product's and the general ones, in their order", () => {
    const available = [
      attr("fit", {
        type: "multiple-choice",
        order: 2,
        categories: ["Apparel"],
        choices: ["Small", "True to size", "Large"],
      }),
      attr("comfort", { type: "stars", order: 1, categories: null }),
      attr("battery", { type: "stars", order: 0, categories: ["Electronics"] }),
      attr("quality", { type: "stars", order: 3, categories: [] }),
    ];
    expect(attributesFor(available, ["apparel", "Shoes"])).toEqual([
      { id: "comfort", title: "Tcomfort", description: "Dcomfort", type: "stars", choices: [] },
      {
        id: "fit",
        title: "Tfit",
        description: "Dfit",
        type: "multiple-choice",
        choices: ["Small", "True to size", "Large"],
      },
      { id: "quality", title: "Tquality", description: "Dquality", type: "stars", choices: [] },
    ]);
  });

  it("GIVEN an unknown type or a choice list without choices THEN it is left out", () => {
    expect(
      attributesFor([attr("a", { type: "slider" }), attr("b", { type: "multiple-choice", choices: [] })], []),
    ).toEqual([]);
    expect(attributesFor(undefined, [])).toEqual([]);
  });
});
