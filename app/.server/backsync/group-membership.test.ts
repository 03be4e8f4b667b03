import { describe, expect, it } from "vitest";
import { regrouped, withGroupMates, type GroupMembership } from "./group-membership";

// Which products a group change touches, as pure functions (the run against the emulator and the
// simulated store is in workers/processors/backsync.test.ts).

const group = (...skus: string[]): GroupMembership =>
  Object.fromEntries(skus.map((s) => [s, [...skus].sort().join("\n")]));

describe("product groups in the back-sync", () => {
  it("GIVEN the same groups THEN nothing is regrouped", () => {
    expect(regrouped({ ...group("1", "2"), ...group("3", "4") }, { ...group("2", "1"), ...group("4", "3") })).toEqual(
      [],
    );
  });

  it("GIVEN a group created, grown, shrunk or deleted THEN every product whose group changed, and its former mates, are regrouped", () => {
    expect(regrouped({}, group("1", "2")).sort()).toEqual(["1", "2"]);
    expect(regrouped(group("1", "2"), group("1", "2", "3")).sort()).toEqual(["1", "2", "3"]);
    expect(regrouped(group("1", "2", "3"), group("1", "2")).sort()).toEqual(["1", "2", "3"]);
    expect(regrouped({ ...group("1", "2"), ...group("5", "6") }, group("5", "6")).sort()).toEqual(["1", "2"]);
  });

  it("GIVEN changed products THEN their group mates come with them, each once", () => {
    const now = { ...group("1", "2", "3"), ...group("7", "8") };
    expect(withGroupMates(["2", "9", "3"], now).sort()).toEqual(["1", "2", "3", "9"]);
  });
});
