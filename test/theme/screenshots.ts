// Screenshots of the extension's blocks at 375 and 1280 px, with demo-like data, for a person to look
// at: `npx tsx test/theme/screenshots.ts <output dir>`. Not a test; nothing here asserts.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { launchChromium, USER_AGENT } from "./browser";
import { snapshot } from "./fixtures";
import { ORIGIN, productPage, servePage, themeForPages } from "./page";

const out = process.argv[2] ?? "/tmp/theme-shots";
mkdirSync(out, { recursive: true });
const theme = themeForPages();
const browser = await launchChromium();
const cases: Array<{
  name: string;
  s: ReturnType<typeof snapshot> | null;
  locale?: string;
  design?: boolean;
  settings?: Record<string, unknown>;
  act?: string;
}> = [
  { name: "128-en", s: snapshot(128) },
  { name: "128-pt-BR", s: snapshot(128), locale: "pt-BR" },
  { name: "1-es", s: snapshot(1), locale: "es" },
  { name: "0-en", s: snapshot(0) },
  { name: "design-en", s: null, design: true },
  { name: "stacked-en", s: snapshot(40), settings: { layout: "stacked" } },
  { name: "filtered-en", s: snapshot(128), act: "filter" },
  { name: "lightbox-en", s: snapshot(128), act: "lightbox" },
];
for (const c of cases) {
  const html = await productPage(theme, c.s, c.locale, c.settings, c.design);
  writeFileSync(join(out, `${c.name}.html`), html);
  for (const width of [375, 1280]) {
    const page = await browser.newPage({ viewport: { width, height: 900 }, userAgent: USER_AGENT });
    await servePage(page, theme, html, { total: c.s?.count ?? 0 });
    await page.goto(`${ORIGIN}/products/stoneware-mug`, { waitUntil: "networkidle" });
    if (c.act === "filter") {
      await page.click("[data-rv-rating='4']");
      await page.click("[data-rv-topic='glaze']");
      await page.waitForSelector("[data-rv-slot]:not([aria-busy]) [data-rv-page][data-total='7']");
    }
    if (c.act === "lightbox") {
      await page.click("[data-rv-media='image']");
      await page.waitForFunction(
        () => (document.querySelector("dialog[open] img") as HTMLImageElement | null)?.complete === true,
      );
      await page.screenshot({ path: join(out, `${c.name}-${width}.png`) });
      await page.close();
      continue;
    }
    await page.screenshot({ path: join(out, `${c.name}-${width}.png`), fullPage: true });
    await page.close();
  }
}
await browser.close();
console.log(`screenshots in ${out}`);
