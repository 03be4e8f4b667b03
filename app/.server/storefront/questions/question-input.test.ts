import { describe, expect, it } from "vitest";
import { parseQuestionInput, QUESTION_TEXT_MAX } from "./question-input";

describe("what the ask-a-question form may send", () => {
  it("takes the text trimmed, with line breaks made plain, and a guest's order or e-mail", () => {
    expect(parseQuestionInput({ text: "  Is it warm?\r\nReally?  " })).toEqual({
      ok: true,
      input: { text: "Is it warm?\nReally?", trap: false },
    });
    expect(parseQuestionInput({ text: "Is it warm?", orderNumber: "#1001", email: "a@example.com" })).toMatchObject({
      ok: true,
      input: { order: { number: "#1001", email: "a@example.com" } },
    });
    expect(parseQuestionInput({ text: "Is it warm?", email: "a@example.com" })).toMatchObject({
      ok: true,
      input: { guestEmail: "a@example.com" },
    });
  });

  it("refuses empty or too short, too long, markup, a bad e-mail, an order without its e-mail", () => {
    expect(parseQuestionInput({})).toEqual({ ok: false, errors: { text: "required" } });
    expect(parseQuestionInput({ text: "Hm?" })).toEqual({ ok: false, errors: { text: "required" } });
    expect(parseQuestionInput({ text: "a".repeat(QUESTION_TEXT_MAX + 1) })).toEqual({
      ok: false,
      errors: { text: "too_long" },
    });
    expect(parseQuestionInput({ text: "Is <b>this</b> ok?" })).toEqual({ ok: false, errors: { text: "markup" } });
    expect(parseQuestionInput({ text: "Is it warm?", email: "not-an-email" })).toEqual({
      ok: false,
      errors: { email: "email" },
    });
    expect(parseQuestionInput({ text: "Is it warm?", orderNumber: "1001" })).toEqual({
      ok: false,
      errors: { email: "required" },
    });
  });

  it("notes a filled honeypot", () => {
    expect(parseQuestionInput({ text: "Is it warm?", website: "http://spam.example" })).toMatchObject({
      ok: true,
      input: { trap: true },
    });
  });
});
