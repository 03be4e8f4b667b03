import { chromium, type Browser } from "playwright-core";
import { chromiumPath, FULL_CHROMIUM } from "../../sandbox/chromium";

// One Chromium for the whole browser project: global-chromium.ts starts it once and publishes its
// endpoint here, and every test file connects to it instead of paying a browser start of its own
// (seconds each on two loaded cores). Test files stay apart through their own browser contexts, and
// closing a connected Browser closes only the contexts that file made. Outside the suite (benches,
// screenshots, a file run on its own without the project) each caller launches its own.

export const CHROMIUM_WS_ENV = "TEST_CHROMIUM_WS_ENDPOINT";
export const CHROMIUM_PATH = chromiumPath();
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** The shared browser when the suite started one, else a browser of the caller's own. */
export function launchChromium(): Promise<Browser> {
  const endpoint = process.env[CHROMIUM_WS_ENV];
  if (endpoint) return chromium.connect(endpoint);
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}

/**
 * The full browser, of the caller's own: the benches' paint and LCP figures stand for a shopper's
 * browser, not for the headless shell the tests use (sandbox/chromium.ts).
 */
export function launchFullChromium(): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH || FULL_CHROMIUM;
  return chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
}
