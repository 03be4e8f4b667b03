import { describe, expect, it } from "vitest";
import { moderationKey, moveCursor } from "./moderation-keys";

const on = (tagName: string, extra: { isContentEditable?: boolean; role?: string } = {}) => ({
  tagName,
  isContentEditable: extra.isContentEditable ?? false,
  getAttribute: (name: string) => (name === "role" ? (extra.role ?? null) : null),
});

describe("moderation shortcuts", () => {
  it("GIVEN j, k, a, r pressed on the page THEN they move, approve and reject", () => {
    expect(["j", "k", "a", "r"].map((key) => moderationKey({ key, target: on("BODY") }))).toEqual([
      "next",
      "previous",
      "approve",
      "reject",
    ]);
    expect(moderationKey({ key: "a", target: on("BUTTON") })).toBe("approve");
    expect(moderationKey({ key: "r", target: { ...on("INPUT"), type: "checkbox" } })).toBe("reject");
    expect(moderationKey({ key: "x", target: on("BODY") })).toBeNull();
  });

  it("GIVEN the merchant typing in a field or using a modifier THEN no shortcut fires", () => {
    for (const target of [on("INPUT"), on("TEXTAREA"), on("SELECT"), on("DIV", { isContentEditable: true })])
      expect(moderationKey({ key: "a", target })).toBeNull();
    expect(moderationKey({ key: "r", target: on("DIV", { role: "combobox" }) })).toBeNull();
    expect(moderationKey({ key: "a", ctrlKey: true, target: on("BODY") })).toBeNull();
    expect(moderationKey({ key: "r", metaKey: true, target: on("BODY") })).toBeNull();
    expect(moderationKey({ key: "j", altKey: true, target: on("BODY") })).toBeNull();
  });

  it("GIVEN a cursor THEN j and k move it within the page's rows", () => {
    expect(moveCursor(null, "next", 3)).toBe(0);
    expect(moveCursor(0, "next", 3)).toBe(1);
    expect(moveCursor(2, "next", 3)).toBe(2);
    expect(moveCursor(0, "previous", 3)).toBe(0);
    expect(moveCursor(1, "previous", 0)).toBeNull();
  });
});
