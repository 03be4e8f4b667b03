import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FLOORS } from "../../scripts/house.js";
import { circles, importGraph, upwardArrows } from "./import-graph";

// The house of app/.server as its imports draw it, folder by folder: no circle, no import of a
// floor above (scripts/house.js names the floors). Proved first on made-up files: a check that
// found nothing would let the house decay unseen.

const ROOT = new URL("../..", import.meta.url).pathname;
const OUTSIDE = ["app/shared/", "app/db.server.ts", "prisma/generated/"];
const floors = FLOORS.map((f) => f.rooms);

const made: string[] = [];
function house(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "house-"));
  made.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}
afterAll(() => made.forEach((root) => rmSync(root, { recursive: true, force: true })));

describe("import graph of app/.server", () => {
  it("GIVEN two folders that import each other, one by a type only THEN it is a circle", () => {
    const root = house({
      "app/.server/a/one.ts": 'import { b } from "../b";\nexport const a = b;\n',
      "app/.server/b/index.ts": 'import type { A } from "../a/types";\nexport const b = 1 as unknown as A;\n',
      "app/.server/a/types.ts": "export type A = number;\n",
      "app/.server/c/index.ts": 'export { a } from "../a/one";\n',
    });
    const arrows = importGraph(root);
    expect(circles(arrows)).toEqual([["a", "b"]]);
    expect(arrows.find((a) => a.from === "b")!.imports).toEqual(["app/.server/b/index.ts → app/.server/a/types.ts"]);
  });

  it("GIVEN an import of a floor above, of the admin's browser side or of a room on no floor THEN each is named", () => {
    const root = house({
      "app/.server/low/x.ts": 'const later = () => import("../high");\nexport { later };\n',
      "app/.server/high/index.ts": 'import { y } from "../low/x";\nexport const z = y;\n',
      "app/.server/config.ts": 'import { m } from "../admin/messages";\nexport const c = m;\n',
      "app/.server/stray/s.ts": 'import { c } from "../config";\nexport const s = c;\n',
      "app/.server/low/ok.ts": 'import { t } from "../../shared/t";\nexport const o = t;\n',
      "app/admin/messages.ts": "export const m = 1;\n",
      "app/shared/t.ts": "export const t = 1;\n",
    });
    const up = upwardArrows(importGraph(root), [["config", "low"], ["high"]], ["app/shared/"]);
    expect(up.map((a) => `${a.from} -> ${a.to}`).sort()).toEqual([
      "config -> app/admin/messages.ts",
      "low -> high",
      "stray -> config",
    ]);
  });

  it("GIVEN a test or a test kit THEN its imports draw no arrow", () => {
    const root = house({
      "app/.server/a/a.test.ts": 'import { b } from "../b/inner";\n',
      "app/.server/a/a.testkit.ts": 'import { b } from "../b/inner";\n',
      "app/.server/b/inner.ts": "export const b = 1;\n",
    });
    expect(importGraph(root)).toEqual([]);
  });

  it("GIVEN the app's own server code THEN no folder circle and no import runs up a floor", () => {
    const arrows = importGraph(ROOT);
    expect(arrows.length).toBeGreaterThan(50);
    expect(circles(arrows)).toEqual([]);
    const up = upwardArrows(arrows, floors, OUTSIDE);
    expect(up.map((a) => `${a.from} -> ${a.to}: ${a.imports.join(", ")}`)).toEqual([]);
  });
});
