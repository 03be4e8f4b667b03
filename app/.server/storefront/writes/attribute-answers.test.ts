import { describe, expect, it } from "vitest";
import { parseAttributeAnswers } from "./attribute-answers";
import type { AttributeQuestion } from "./available-attributes";

const asked: AttributeQuestion[] = [
  { id: "quality", title: "Quality", description: "", type: "stars", choices: [] },
  { id: "fit", title: "Fit", description: "", type: "multiple-choice", choices: ["Small", "True to size", "Large"] },
];

describe("parseAttributeAnswers", () => {
  it("GIVEN stars and a choice index THEN the service's shape, with the choice's text", () => {
    expect(
      parseAttributeAnswers(
        {
          attributes: [
            { id: "quality", value: 4 },
            { id: "fit", value: 1 },
          ],
        },
        asked,
      ),
    ).toEqual({
      ok: true,
      attributes: [
        { _id: "quality", value: 4 },
        { _id: "fit", value: 1, response: "True to size" },
      ],
    });
  });

  it.each([
    [{ attributes: [{ id: "quality", value: 6 }] }],
    [{ attributes: [{ id: "fit", value: 3 }] }],
    [{ attributes: [{ id: "other", value: 1 }] }],
    [
      {
        attributes: [
          { id: "quality", value: 2 },
          { id: "quality", value: 3 },
        ],
      },
    ],
    [{ attributes: [{ id: "quality", value: "4" }] }],
    [{}],
  ])("GIVEN %j THEN refused", (body) => {
    expect(parseAttributeAnswers(body, asked)).toEqual({ ok: false, error: "invalid" });
  });

  it("GIVEN no answers THEN empty", () => {
    expect(parseAttributeAnswers({ attributes: [] }, asked)).toEqual({ ok: false, error: "empty" });
  });
});
