import { createRequire } from "node:module";
import type { Page } from "playwright-core";

// axe-core run inside a page the test has open: the violations under one element, each as
// "rule: where", so a failed expectation names what to fix.

const axeSource = (createRequire(import.meta.url)("axe-core") as { source: string }).source;

export async function axeViolations(page: Page, selector: string): Promise<string[]> {
  await page.addScriptTag({ content: axeSource });
  return page.evaluate(async (sel) => {
    const axe = (
      window as unknown as {
        axe: { run(ctx: Element, o: object): Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> };
      }
    ).axe;
    const r = await axe.run(document.querySelector(sel)!, { resultTypes: ["violations"] });
    return r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  }, selector);
}
