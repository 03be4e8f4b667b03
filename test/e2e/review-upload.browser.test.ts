import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStorefrontStack, type StorefrontStack } from "../helpers/storefront-stack";
import { axeViolations } from "../helpers/axe";
import { blockScriptsRan, launchChromium, USER_AGENT } from "../theme/browser";
import { shotsIn } from "../helpers/shots";

// Photos and a video after a review is sent, in the shopper's language: a drop zone with a button
// (the keyboard's way in), a thumbnail or the video's name per file, a progress bar each, and a
// file of the wrong type, too large, or one too many told before anything is sent. The drop zone's
// code arrives only once the form opens.

const shoot = shotsIn("upload");
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
let st: StorefrontStack;
let browser: Browser;

beforeAll(async () => {
  // Three shoppers write from one address here (127.0.0.1): each photo is two writes of its budget.
  st = await startStorefrontStack("review-upload", { PROXY_CACHE_MS: "0", PROXY_WRITE_IP_LIMIT_PER_HOUR: "200" });
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await st?.close();
});

const COPY = {
  en: {
    prefix: "",
    write: "Write a review",
    photos: "Add photos",
    video: "Add a video",
    choose: "Choose photos",
    drop: "Drag and drop photos here, or",
    limits: "Up to 5 photos: JPG, PNG, WEBP, HEIC, 10 MB each.",
    type: "This file type is not accepted.",
    size: "This file is too large.",
    count: "You have added the most files allowed.",
    done: "Uploaded",
  },
  "pt-BR": {
    prefix: "/pt-BR",
    write: "Escrever uma avaliação",
    photos: "Adicionar fotos",
    video: "Adicionar um vídeo",
    choose: "Escolher fotos",
    drop: "Arraste e solte fotos aqui, ou",
    limits: "Até 5 fotos: JPG, PNG, WEBP, HEIC, 10 MB cada.",
    type: "Este tipo de arquivo não é aceito.",
    size: "Este arquivo é grande demais.",
    count: "Você já adicionou o máximo de arquivos permitido.",
    done: "Enviado",
  },
  es: {
    prefix: "/es",
    write: "Escribir una reseña",
    photos: "Añadir fotos",
    video: "Añadir un vídeo",
    choose: "Elegir fotos",
    drop: "Arrastra y suelta fotos aquí, o",
    limits: "Hasta 5 fotos: JPG, PNG, WEBP, HEIC, 10 MB cada una.",
    type: "Este tipo de archivo no se acepta.",
    size: "Este archivo es demasiado grande.",
    count: "Ya añadiste el máximo de archivos permitido.",
    done: "Subido",
  },
} as const;

/** A logged-in customer's review sent, up to the photos and video step. */
async function toExtras(width: number, locale: keyof typeof COPY, customer: string, product: number) {
  const context = await browser.newContext({ viewport: { width, height: 900 }, userAgent: USER_AGENT });
  await context.addCookies([{ name: "local_storefront_customer", value: customer, url: st.storefront.origin }]);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  page.on("pageerror", (e) => errors.push(e.message));
  const media: string[] = [];
  page.on("request", (r) => r.method() === "POST" && r.url().includes("/media") && media.push(r.url()));
  const handle = st.store.products()[product]!.handle;
  await page.goto(`${st.storefront.origin}${COPY[locale].prefix}/products/${handle}`, { waitUntil: "networkidle" });
  await blockScriptsRan(page);
  await page.getByRole("button", { name: COPY[locale].write }).click();
  await page.locator("review-form").waitFor();
  await page.locator(".rv-rate__star").nth(4).click();
  await page.locator("review-form button[type=submit]").click();
  await page.locator('[data-rv-form-step="extras"] review-upload').first().waitFor();
  return { page, errors, media };
}

/** Files dropped on a drop zone as a browser delivers them. */
async function drop(page: Page, zone: string, files: { name: string; type: string; size?: number; png?: boolean }[]) {
  await page.locator(zone).evaluate(
    (el, { files, png }) => {
      const dt = new DataTransfer();
      for (const f of files) {
        const bytes = f.png ? Uint8Array.from(atob(png), (c) => c.charCodeAt(0)) : new Uint8Array(f.size ?? 16);
        dt.items.add(new File([bytes], f.name, { type: f.type }));
      }
      el.dispatchEvent(new DragEvent("dragover", { dataTransfer: dt, bubbles: true, cancelable: true }));
      el.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
    },
    { files, png: PNG.toString("base64") },
  );
}

describe("photo and video upload", () => {
  const runs: [keyof typeof COPY, number, string, number][] = [
    ["en", 1280, "7001", 1],
    ["pt-BR", 375, "7002", 2],
    ["es", 375, "7003", 3],
  ];
  for (const [locale, width, customer, product] of runs) {
    const copy = COPY[locale];
    it(`GIVEN a review sent in ${locale} at ${width} px WHEN photos are dropped, chosen by keyboard, or refused THEN each shows its preview and progress, and refusals are told before sending`, async () => {
      const { page, errors, media } = await toExtras(width, locale, customer, product);
      const photos = page.getByRole("group", { name: copy.photos });
      expect(await photos.locator(".rv-drop__lead").textContent()).toBe(copy.drop);
      expect(await photos.locator(".rv-drop__hint").textContent()).toBe(copy.limits);
      expect(await page.getByRole("group", { name: copy.video }).count()).toBe(1);

      // Dropped: a thumbnail, a bar that reaches 100, "Uploaded".
      await drop(page, "review-upload >> nth=0 >> .rv-drop__zone", [
        { name: "dropped.png", type: "image/png", png: true },
      ]);
      const first = photos.locator(".rv-file").first();
      await expect.poll(() => first.locator(".rv-file__note").textContent()).toBe(copy.done);
      expect(await first.locator("progress").evaluate((p: HTMLProgressElement) => p.value)).toBe(100);
      await expect
        .poll(() => first.locator(".rv-file__preview img").evaluate((i: HTMLImageElement) => i.naturalWidth))
        .toBeGreaterThan(0);

      // By keyboard: the button opens the file chooser.
      const chooser = page.waitForEvent("filechooser");
      await photos.getByRole("button", { name: copy.choose }).focus();
      await page.keyboard.press("Enter");
      await (await chooser).setFiles({ name: "chosen.png", mimeType: "image/png", buffer: PNG });
      await expect.poll(() => photos.locator(".rv-file .rv-file__note").nth(1).textContent()).toBe(copy.done);
      const sent = media.length;

      // Refused before sending: a text file, an 11 MB photo, and the sixth photo of five.
      await drop(page, "review-upload >> nth=0 >> .rv-drop__zone", [
        { name: "notes.txt", type: "text/plain" },
        { name: "huge.png", type: "image/png", size: 11 * 1024 * 1024 },
        { name: "c.png", type: "image/png", png: true },
        { name: "d.png", type: "image/png", png: true },
        { name: "e.png", type: "image/png", png: true },
        { name: "f.png", type: "image/png", png: true },
      ]);
      const failed = photos.locator(".rv-file[data-failed] .rv-file__note");
      await expect.poll(() => failed.allTextContents()).toEqual([copy.type, copy.size, copy.count]);
      expect(await failed.first().evaluate((el) => getComputedStyle(el).color)).toBe("rgb(179, 38, 30)");
      await expect
        .poll(() => photos.locator(".rv-file:not([data-failed]) .rv-file__note").allTextContents())
        .toEqual([copy.done, copy.done, copy.done, copy.done, copy.done]);
      // Three more presigned and confirmed (two calls each); nothing for the refused ones.
      expect(media.length - sent).toBe(6);

      // A video: its name in the list.
      await page.locator('input[type=file][accept*="video/mp4"]').setInputFiles({
        name: "clip.mp4",
        mimeType: "video/mp4",
        buffer: Buffer.from("00000018667479706d703432000000006d703432", "hex"),
      });
      const video = page.getByRole("group", { name: copy.video }).locator(".rv-file");
      expect(await video.locator(".rv-file__name").textContent()).toContain("clip.mp4");
      await expect.poll(() => video.locator(".rv-file__note").textContent()).toBe(copy.done);

      await shoot(page.locator("review-form"), `upload-${locale}-${width}.png`);
      expect(await axeViolations(page, "product-reviews")).toEqual([]);
      expect(errors.filter((e) => !e.startsWith("Failed to load resource"))).toEqual([]);
      await page.context().close();
    });
  }
});
