import { chromium, type BrowserServer } from "playwright-core";
import { CHROMIUM_ARGS, CHROMIUM_PATH, CHROMIUM_WS_ENV } from "./chromium";

// globalSetup of the browser project: the one Chromium its test files connect to (chromium.ts).

let server: BrowserServer | undefined;

export async function setup() {
  server = await chromium.launchServer({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  process.env[CHROMIUM_WS_ENV] = server.wsEndpoint();
}

export async function teardown() {
  delete process.env[CHROMIUM_WS_ENV];
  await server?.close();
}
