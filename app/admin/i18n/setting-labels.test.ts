import { describe, expect, it } from "vitest";
import { settingSpecs } from "../../.server/shops/settings-paths";
import { en } from "./en";

// The settings page and the home checklist read labels by key and fall back to the raw path or
// value: a setting added to the settings module without its words would show "orders.x.y" to a
// merchant. Every locale has every key of `en` (the dictionaries are typed by its keys).

const has = (key: string) => key in en;

describe("admin words for every setting", () => {
  it("GIVEN the settings module THEN every setting has a label, and every group of them a heading", () => {
    expect(settingSpecs.map((s) => s.path).filter((path) => !has(`setting.${path}`))).toEqual([]);
    const groups = [...new Set(settingSpecs.map((s) => s.path.split(".")[0]))];
    expect(groups.filter((g) => !has(`settings.section.${g}`))).toEqual([]);
  });

  it("GIVEN an enum setting THEN every value it takes has words", () => {
    const missing: string[] = [];
    for (const spec of settingSpecs) {
      if (spec.leaf.kind !== "enum") continue;
      for (const value of spec.leaf.values) {
        const optOut = spec.path.startsWith("orders.optOut.");
        if (!has(`setting.${spec.path}.${value}`) && !(optOut && has(`setting.optOut.${value}`))) missing.push(`${spec.path}=${value}`);
        if (optOut && !has(`home.policy.${value}`)) missing.push(`home.policy.${value}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
