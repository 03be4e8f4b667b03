import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { themeCheckRun } from "@shopify/theme-check-node";
import { describe, expect, it } from "vitest";
import { EXTENSION_DIR } from "./fixtures";

// Theme Check with the theme-app-extension configuration (the extension's .theme-check.yml), and the
// platform's size limits for a theme app extension.

const ERROR = 0;

async function errorsIn(dir: string) {
  const run = await themeCheckRun(dir, join(dir, ".theme-check.yml"), () => undefined);
  return run.offenses
    .filter((o) => o.severity === ERROR)
    .map((o) => `${o.check} ${o.uri.split("/reviews-theme")[1] ?? o.uri}:${o.start.line + 1} ${o.message}`);
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe("theme app extension", () => {
  it("has no Theme Check offence of error severity", async () => {
    expect(await errorsIn(EXTENSION_DIR)).toEqual([]);
  });

  it("is checked with the app-extension checks (a broken copy is reported)", async () => {
    const copy = mkdtempSync(join(tmpdir(), "reviews-theme-"));
    try {
      cpSync(EXTENSION_DIR, join(copy, "reviews-theme"), { recursive: true });
      const dir = join(copy, "reviews-theme");
      writeFileSync(
        join(dir, "blocks", "broken.liquid"),
        '{% render \'does-not-exist\' %}{{ \'x\' | asset_url | stylesheet_tag }}\n{% schema %}{"name": "t:missing.key", "target": "section"}{% endschema %}',
      );
      expect((await errorsIn(dir)).length).toBeGreaterThan(0);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it("stays inside the platform's limits: all Liquid ≤ 100 KB, each locale file ≤ 15 KB", () => {
    const files = filesUnder(EXTENSION_DIR);
    const liquid = files.filter((f) => f.endsWith(".liquid")).reduce((sum, f) => sum + statSync(f).size, 0);
    expect(liquid).toBeLessThanOrEqual(100 * 1024);
    for (const f of files.filter((f) => f.includes("/locales/")))
      expect(statSync(f).size, f).toBeLessThanOrEqual(15 * 1024);
  });

  it("has every storefront and schema key in en, pt-BR and es", () => {
    const keys = (file: string): string[] => {
      const walk = (o: Record<string, unknown>, prefix: string): string[] =>
        Object.entries(o).flatMap(([k, v]) =>
          v && typeof v === "object" ? walk(v as Record<string, unknown>, `${prefix}${k}.`) : [`${prefix}${k}`],
        );
      return walk(JSON.parse(readFileSync(join(EXTENSION_DIR, "locales", file), "utf8")), "").sort();
    };
    for (const kind of ["", ".schema"]) {
      const en = keys(`en.default${kind}.json`);
      expect(keys(`pt-BR${kind}.json`)).toEqual(en);
      expect(keys(`es${kind}.json`)).toEqual(en);
    }
  });
});
