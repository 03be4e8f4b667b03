import { describe, expect, it } from "vitest";
import { settingSpecs } from "../../.server/settings/settings-paths";
import { settingValueKey } from "../setting-words";
import { en } from "./en";
import { es } from "./es";
import { ptBR } from "./pt-BR";

// The settings page, the home checklist and the CLI read a setting's words by key: a setting added
// to the settings module without its words would show "orders.x.y" (or another value's words) to a
// merchant. Walks the schema itself, so a new setting or value fails here until it has words.

const has = (key: string) => key in en;
const dictionaries = { en, "pt-BR": ptBR, es } as Record<string, Record<string, string>>;

describe("admin words for every setting", () => {
  it("GIVEN the settings module THEN every setting has a label, and every group of them a heading", () => {
    expect(settingSpecs.map((s) => s.path).filter((path) => !has(`setting.${path}`))).toEqual([]);
    const groups = [...new Set(settingSpecs.map((s) => s.path.split(".")[0]))];
    expect(groups.filter((g) => !has(`settings.section.${g}`))).toEqual([]);
  });

  it("GIVEN an enum setting THEN every value it takes has words of its own in English, Portuguese and Spanish", () => {
    const missing: string[] = [];
    for (const spec of settingSpecs) {
      if (spec.leaf.kind !== "enum") continue;
      for (const [locale, dict] of Object.entries(dictionaries)) {
        const words = spec.leaf.values.map((value) => {
          const key = settingValueKey(spec.path, value);
          const text = key ? dict[key]?.trim() : undefined;
          if (!text) missing.push(`${locale}: ${spec.path}=${value}`);
          return text;
        });
        // Two values in the same words tell the merchant nothing.
        const given = words.filter(Boolean);
        if (new Set(given).size !== given.length)
          missing.push(`${locale}: ${spec.path} has two values in the same words`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("GIVEN the e-mail rule the settings default to THEN its words are the Settings page's, not another value's", () => {
    expect(settingValueKey("orders.optOut.email", "unsubscribed")).toBe("setting.optOut.unsubscribed");
    expect(en["setting.optOut.unsubscribed"]).toBe("Every buyer who has not unsubscribed");
    expect(settingValueKey("orders.optOut.email", "sometimes")).toBeNull();
  });
});
