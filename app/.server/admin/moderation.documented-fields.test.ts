import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type Emulator } from "../../../sandbox/emulator/server";
import { createReviewsClient } from "../reviews";
import { reviewRow } from "./moderation";

// The moderation queue's rows from a service that sends the admin review's documented fields only
// (no `reply`, no `video`: docs/reviews-service.md, "Fields the app reads that the documents do not
// name") and from one that sends them too: the same reviews, nothing fails, and only those two
// extras differ.

const account = { customer: "demo-store", clientId: "demo-client", clientSecret: "demo-secret" };

async function rowsFrom(emu: Emulator) {
  const client = createReviewsClient({
    account: { ...account, apiUrl: emu.baseUrl, authUrl: emu.authUrl, rateUrl: emu.rateUrl },
  });
  const list = await client.admin.listReviews({ includeOrderData: true, status: "published" });
  return list.results.map(reviewRow);
}

let extended: Emulator;
let strict: Emulator;
beforeAll(async () => {
  [extended, strict] = await Promise.all([
    startEmulator({ seed: true, strict: false }),
    startEmulator({ seed: true, strict: true }),
  ]);
});
afterAll(async () => {
  await Promise.all([extended?.close(), strict?.close()]);
});

describe("moderation rows and the documented fields", () => {
  it("GIVEN a strict service THEN every row is built, without store replies or video links, and with the documented rest", async () => {
    const [full, documented] = await Promise.all([rowsFrom(extended), rowsFrom(strict)]);
    expect(documented.map((r) => r.id)).toEqual(full.map((r) => r.id));
    expect(full.some((r) => r.reply !== null)).toBe(true);
    expect(full.some((r) => r.video !== null)).toBe(true);
    for (const r of documented) expect(r).toMatchObject({ reply: null, video: null });
    // A multiple-choice attribute's answer is undocumented too: without it, the attribute is left out.
    expect(documented.flatMap((r) => r.attributes).every((a) => a.response === null)).toBe(true);
    const withoutExtras = (r: (typeof full)[number]) => ({
      ...r,
      reply: null,
      video: null,
      attributes: r.attributes.filter((a) => a.response === null),
      pictures: r.pictures.map((u) => new URL(u).pathname),
    });
    expect(documented.map(withoutExtras)).toEqual(full.map(withoutExtras));
  });
});
