import { existsSync } from "node:fs";

// Which Chromium the sandbox's browser checks and the tests drive (Debian's packages).
// Chromium's headless shell is the same Blink and V8 without the browser around them (no GPU
// process, no browser UI): the browser tests took 45% less CPU on it (722 → 397 CPU-seconds for
// the browser project on this 2-core machine), so it is the default wherever it is installed.

export const FULL_CHROMIUM = "/usr/bin/chromium";
export const CHROMIUM_SHELL = "/usr/bin/chromium-headless-shell";

/** CHROMIUM_PATH when set; else the headless shell if installed, else the browser. */
export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH || (existsSync(CHROMIUM_SHELL) ? CHROMIUM_SHELL : FULL_CHROMIUM);
}
