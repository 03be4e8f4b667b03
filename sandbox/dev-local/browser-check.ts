import type { Browser, Page } from "playwright-core";
import { en } from "../../app/shared/i18n/en";

// Pages opened in Chromium as a person would, for `dev:local --check` and the admin's tests: a page
// passes when nothing goes wrong in the browser (no uncaught error, no console error, no request to
// the app that fails) and it has hydrated: React owns its markup, and one control that needs the
// page's script answers. A page served but not hydrated looks right and does nothing.

export const DESKTOP_USER_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";

export interface PageProblem {
  page: string;
  problem: string;
}

/** What one page's control proves; resolves when it answered, throws when it did not. */
export type Probe = (page: Page, appOrigin: string) => Promise<string>;

const within = 20_000;

/** React has hydrated the document: its DOM nodes carry React's fiber keys. */
async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const main = document.querySelector("main") ?? document.body.firstElementChild;
      return Boolean(main && Object.keys(main).some((k) => k.startsWith("__reactFiber")));
    },
    undefined,
    { timeout: within },
  );
}

/**
 * The admin's pages and the control each one proves itself with (English labels: the check opens them with locale=en).
 */
export const adminProbes: Record<string, Probe> = {
  "/app": async (page) => {
    // The key figures load from the page's script once it shows: any answer (figures, not
    // connected, service down) ends the busy state.
    await page.locator('[aria-busy="false"]:has([data-figure])').waitFor({ timeout: within });
    return "the key figures loaded after the page showed";
  },
  "/app/sync": async (page) => {
    const posted = page.waitForResponse(
      (r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/app/sync"),
      { timeout: within },
    );
    await page.getByRole("button", { name: en["sync.now"] }).first().click();
    const res = await posted;
    if (!res.ok()) throw new Error(`"${en["sync.now"]}" answered ${res.status()}`);
    await page.getByText(en["sync.started"]).first().waitFor({ timeout: within });
    return `"${en["sync.now"]}" queued a sync`;
  },
  "/app/reviews": async (page, appOrigin) => {
    await page
      .getByRole("checkbox", { name: /select all/i })
      .first()
      .check({ timeout: within });
    await page.getByRole("button", { name: en["reviews.approveSelected"] }).first().waitFor({ timeout: within });
    await page.getByRole("button", { name: en["reviews.filter.apply"] }).click();
    await page.waitForLoadState("networkidle", { timeout: within });
    const at = new URL(page.url());
    if (at.origin !== appOrigin || at.pathname !== "/app/reviews")
      throw new Error(`"${en["reviews.filter.apply"]}" went to ${at.pathname}`);
    return "selecting a review shows the bulk bar; filters apply in the app";
  },
  "/app/questions": async () => "hydrated",
  "/app/surveys": async (page) => {
    // The charts' table toggle is client code: it answers only once the page hydrated.
    await page.getByRole("button", { name: en["charts.showTable"] }).first().click({ timeout: within });
    await page.getByRole("button", { name: en["charts.hideTable"] }).first().waitFor({ timeout: within });
    return `"${en["charts.showTable"]}" shows a chart's numbers`;
  },
  "/app/report": async (page) => {
    const download = page.waitForEvent("download", { timeout: within });
    await page.getByRole("button", { name: en["report.export"] }).first().click();
    const file = await download;
    return `"${en["report.export"]}" downloaded ${file.suggestedFilename()}`;
  },
  "/app/groups": async (page) => {
    // The resource picker opens (App Bridge's, or the stand-in's listing the product mirror) and closes.
    await page.getByRole("button", { name: en["groups.chooseProducts"] }).first().click({ timeout: within });
    const picker = page.getByRole("dialog").first();
    await picker.waitFor({ timeout: within });
    await page.keyboard.press("Escape");
    await picker.waitFor({ state: "detached", timeout: within });
    return `"${en["groups.chooseProducts"]}" opens the product picker`;
  },
  "/app/channels": async (page) => {
    // The feed's address is a read-only field that selects itself when focused (client code).
    const field = page.getByLabel(en["channels.google.url"]);
    await field.focus({ timeout: within });
    await page.waitForFunction(
      () => {
        const el = document.activeElement as HTMLInputElement | null;
        return Boolean(el?.value) && el?.selectionStart === 0 && el?.selectionEnd === el?.value.length;
      },
      undefined,
      { timeout: within },
    );
    return "the feed address selects itself for copying";
  },
  "/app/settings": async (page) => {
    const field = page.getByLabel(en["setting.catalog.defaultCategory"]);
    await field.fill(`${await field.inputValue()} x`, { timeout: within });
    await page.locator("ui-save-bar[data-shown]").waitFor({ timeout: within });
    return "a change shows the save bar";
  },
};

/**
 * Opens `url`, waits for hydration, runs the probe, and returns what went wrong (nothing when the
 * page works). Requests outside `appOrigin` are left to `route` (the caller's stand-ins), if given.
 */
export async function checkPage(
  browser: Browser,
  url: string,
  probe: Probe | undefined,
  opts: {
    appOrigin: string;
    /** Whether the page is React's (the admin) or the theme's with its blocks' own scripts (the storefront). */
    react?: boolean;
    viewport?: { width: number; height: number };
    route?: Parameters<Page["route"]>[1];
    /** Files to write full-page screenshots to, by viewport width. */
    screenshots?: Record<number, string>;
    /** HTTP basic credentials (the operator dashboard). */
    httpCredentials?: { username: string; password: string };
    /** Ids and keys no person should read on the page (the service's and Shopify's, not names). */
    hiddenIds?: readonly string[];
  } = { appOrigin: "" },
): Promise<{ problems: string[]; proved?: string }> {
  const context = await browser.newContext({
    userAgent: DESKTOP_USER_AGENT,
    viewport: opts.viewport ?? { width: 1280, height: 900 },
    acceptDownloads: true,
    httpCredentials: opts.httpCredentials,
  });
  const problems: string[] = [];
  try {
    if (opts.route) await context.route("**/*", opts.route);
    const page = await context.newPage();
    page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    page.on("console", (m) => {
      if (m.type() === "error") problems.push(`console error: ${m.text()}`);
    });
    page.on("requestfailed", (r) => {
      if (r.url().startsWith(opts.appOrigin) && !r.failure()?.errorText.includes("ERR_ABORTED"))
        problems.push(`request failed: ${r.url()} (${r.failure()?.errorText})`);
    });
    page.on("response", (r) => {
      if (r.url().startsWith(opts.appOrigin) && r.status() >= 400)
        problems.push(`${r.status()} from ${r.url().split("?")[0]}`);
    });
    await page.goto(url, { waitUntil: "load", timeout: 60_000 });
    let proved: string | undefined;
    try {
      if (opts.react !== false) await hydrated(page);
      proved = probe ? await probe(page, opts.appOrigin) : "loaded";
    } catch (e) {
      problems.push(`did not answer: ${(e as Error).message.split("\n")[0]}`);
    }
    const shown = opts.hiddenIds?.length ? await idsShown(page, opts.hiddenIds) : [];
    if (shown.length) problems.push(`shows ${shown.join(", ")} where a person reads, not a name`);
    for (const [width, path] of Object.entries(opts.screenshots ?? {})) {
      await page.setViewportSize({ width: Number(width), height: 900 });
      await page.screenshot({ path, fullPage: true });
    }
    return { problems, proved };
  } finally {
    await context.close();
  }
}

const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Which of `ids` the page shows where a person reads: its text, and the names given to images and
 * controls (a screen reader reads those). An id inside a longer word or number does not count.
 */
export async function idsShown(page: Page, ids: readonly string[]): Promise<string[]> {
  const text = await page.evaluate(() =>
    [
      document.body.innerText,
      ...[...document.querySelectorAll("[aria-label], img[alt]")].map(
        (e) => e.getAttribute("aria-label") ?? e.getAttribute("alt") ?? "",
      ),
    ].join("\n"),
  );
  return ids.filter((id) => new RegExp(`(^|[^\\w-])${escaped(id)}($|[^\\w-])`).test(text));
}

/**
 * The blocks' scripts come once the page has painted (snippet after-paint-script), which may be
 * after "networkidle": waits until each one asked for has run, so that an error of theirs is seen
 * (`until: "added"`: only until each is in the page, for a page whose network is refused).
 */
export async function blockScriptsRan(
  page: Page,
  timeout?: number,
  until: "added" | "loaded" = "loaded",
): Promise<void> {
  await page.waitForFunction(
    (until) =>
      Object.values((window as unknown as { rvScripts?: Record<string, string> }).rvScripts ?? {}).every((state) =>
        until === "loaded" ? state === "loaded" : state !== "asked",
      ),
    until,
    { timeout },
  );
}

export const storefrontProbe: Probe = async (page) => {
  await page.waitForLoadState("networkidle", { timeout: within });
  await blockScriptsRan(page, within);
  return "loaded";
};
