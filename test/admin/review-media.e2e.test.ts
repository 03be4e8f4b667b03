import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAdminStack, type AdminStack } from "../helpers/admin-stack";
import { startHostileFront, type HostileFront, type ReviewMedia } from "../helpers/hostile-media-front";

// The moderation queue in Chromium with a service that sends hostile photo and video URLs next to
// a real photo: the real photo is a link that opens in a new tab (without access to the admin), and
// the hostile ones are neither links nor images. Clicking the photo leaves the row's selection alone.

const SHOP = "review-media-admin.myshopify.com";
let a: AdminStack;
let front: HostileFront;
let photo: string;
let media: ReviewMedia;

beforeAll(async () => {
  a = await startAdminStack("admin-review-media", SHOP, { products: 2 });
  a.s.emu.control.seed({ customer: "acme", products: 2 });
  // A photo the emulator serves, as the service's CDN would (plain http is kept outside production).
  photo = `${new URL(a.s.emu.baseUrl).origin}/uploads/kept-photo.jpg`;
  media = {
    pictures: [
      { url: "javascript:alert(document.domain)", thumb: photo },
      { url: " data:text/html,<script>alert(1)</script>", thumb: photo },
      { url: photo, thumb: photo },
    ],
    video: { url: "vbscript:msgbox(1)", thumb: photo },
    source: null,
  };
  front = await startHostileFront(a.s.emu.baseUrl, () => media);
  await a.s.web.shops.connect({
    domain: SHOP,
    customerKey: "acme",
    clientId: "acme-client",
    clientSecret: "acme-secret-0123456789",
    apiUrl: `${front.origin}/api`,
    authUrl: `${front.origin}/auth`,
  });
}, 180_000);
afterAll(async () => {
  await a?.close();
  await front?.close();
});

describe("review media in the moderation queue", () => {
  it("GIVEN hostile photo and video URLs beside a real photo THEN only the real photo is a link, and it opens in a new tab without the admin", async () => {
    const tab = await a.open();
    const { page } = tab;
    const dialogs: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await tab.goto("/app/reviews?status=all");
    const links = page.getByRole("link", { name: /^Photo \d+ of the review by/ });
    await links.first().waitFor();
    const rows = await page.locator("tr[id], li[id]").count();
    expect(rows).toBeGreaterThan(0);
    // One photo link per review, the real one; no video link (its URL was hostile).
    const hrefs = await page.locator("a[href]").evaluateAll((as) => as.map((el) => el.getAttribute("href") ?? ""));
    expect(hrefs.filter((h) => /^\s*(javascript|vbscript|data):/i.test(h))).toEqual([]);
    expect(hrefs.filter((h) => h === photo)).toHaveLength(await links.count());
    expect(await page.getByRole("link", { name: "Video" }).count()).toBe(0);
    const sources = await page.locator("img").evaluateAll((imgs) => imgs.map((el) => el.getAttribute("src") ?? ""));
    expect(sources.filter((s) => /^\s*(javascript|vbscript|data):/i.test(s))).toEqual([]);
    const first = links.first();
    expect(await first.getAttribute("target")).toBe("_blank");
    expect(await first.getAttribute("rel")).toBe("noopener noreferrer");

    // The click reaches the link: a new tab opens on the photo, and the row is not selected by it.
    const popup = page.waitForEvent("popup");
    await first.click();
    const opened = await popup;
    await expect.poll(() => opened.url()).toBe(photo);
    expect(await opened.evaluate(() => window.opener)).toBeNull();
    expect(await page.getByRole("checkbox", { checked: true }).count()).toBe(0);
    expect(dialogs).toEqual([]);
  }, 120_000);
});
