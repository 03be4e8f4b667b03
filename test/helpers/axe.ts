import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

// axe-core run inside a page the test has open. The page loads axe's minified build once: loading
// the full build (1.5 MB) before every check took longer than the check itself (1-2 s of the
// renderer's main thread each time on this machine, a third of the browser tests' Chromium time).

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  /** The elements, each as its CSS selector path. */
  nodes: string[];
}

export interface AxeOptions {
  /** The element to check (a CSS selector); the whole document when absent. */
  within?: string;
  /** axe's rule tags to run (`runOnly`); every rule when absent. */
  tags?: string[];
}

/** Every violation axe-core finds in the page as it is now. */
export async function axeViolationsOf(page: Page, opts: AxeOptions = {}): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ content: AXE_SOURCE });
  return page.evaluate(async ({ within, tags }) => {
    type Result = {
      violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[];
    };
    const axe = (window as unknown as { axe: { run(ctx: unknown, o: object): Promise<Result> } }).axe;
    const context = within ? document.querySelector(within) : document;
    if (!context) throw new Error(`axe: nothing matches ${within}`);
    const r = await axe.run(context, {
      resultTypes: ["violations"],
      ...(tags ? { runOnly: { type: "tag", values: tags } } : {}),
    });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => n.target.map((t) => (typeof t === "string" ? t : JSON.stringify(t))).join(" ")),
    }));
  }, opts);
}

/**
 * The violations as "rule: where" lines, so a failed expectation names what to fix: under one element
 * (a CSS selector), or as `axeViolationsOf` takes them.
 */
export async function axeViolations(page: Page, target: string | AxeOptions = {}): Promise<string[]> {
  const found = await axeViolationsOf(page, typeof target === "string" ? { within: target } : target);
  return found.map((v) => `${v.id}: ${v.nodes.join(", ")}`);
}
