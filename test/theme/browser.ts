import type { Browser, Page } from "playwright-core";
import { CHROMIUM_ARGS, launchChromium } from "../helpers/chromium";

// Headless Chromium as the HTML parser of the theme tests: what a shopper's browser builds from the
// rendered Liquid is what we assert on, not substrings of it.

export { CHROMIUM_ARGS, launchChromium };
// Tests wait as dev:local's browser check does for the blocks' after-paint scripts.
import { blockScriptsRan } from "../../sandbox/dev-local/browser-check";
export { blockScriptsRan };
export const USER_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36";

/**
 * A page holding `html` with every network request refused, that records any script that runs from
 * the markup (an alert, a confirm, or a write to window.__xss).
 */
export async function pageWith(
  browser: Browser,
  html: string,
): Promise<{ page: Page; executed: () => Promise<string[]> }> {
  const page = await browser.newPage({ userAgent: USER_AGENT });
  const dialogs: string[] = [];
  page.on("dialog", (d) => {
    dialogs.push(`${d.type()}: ${d.message()}`);
    void d.dismiss();
  });
  await page.route("**/*", (route) => route.abort());
  await page.setContent(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title></head><body>${html}</body></html>`,
    { waitUntil: "load" },
  );
  // The blocks add their scripts once the page has painted (snippet after-paint-script), which can
  // come after `load`; with the network refused they never load, so "added" is as far as they go.
  await blockScriptsRan(page, undefined, "added");
  return {
    page,
    executed: async () => [
      ...dialogs,
      ...((await page.evaluate(() => (window as unknown as { __xss?: string[] }).__xss ?? [])) as string[]),
    ],
  };
}
