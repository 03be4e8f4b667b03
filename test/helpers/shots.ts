import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Locator, Page, PageScreenshotOptions } from "playwright-core";

// Screenshots are for a person to look at, never for an assertion: taken only when SHOTS_DIR names
// a folder (each test file's in a subfolder of it). A run took about 95 full-page PNGs that nobody
// opened, each a fraction of a CPU-second of Chromium and encoding on a 2-core machine.

/** `shoot(page or element, file)` into SHOTS_DIR/<folder>, or nothing when SHOTS_DIR is unset. */
export function shotsIn(folder: string) {
  const dir = process.env.SHOTS_DIR ? join(process.env.SHOTS_DIR, folder) : undefined;
  if (dir) mkdirSync(dir, { recursive: true });
  return async (target: Page | Locator, file: string, options: Omit<PageScreenshotOptions, "path"> = {}) => {
    if (!dir) return;
    const path = join(dir, file);
    await ("goto" in target ? target.screenshot({ ...options, path }) : target.screenshot({ path }));
  };
}
