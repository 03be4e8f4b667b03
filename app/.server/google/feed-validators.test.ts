import { describe, expect, it } from "vitest";
import { feedEtag, notModified, type FeedInputs } from "./feed-validators";

const inputs: FeedInputs = {
  primaryDomain: "https://shop.example.com",
  locale: "en",
  publishedTotal: 1284,
  topModerated: ["66f1c0a2e4b0000000000031:published", "66f1c0a2e4b0000000000030:published"],
  catalog: { count: 312, changedAt: new Date("2026-11-20T09:12:44.000Z") },
  incentivizedReviews: false,
};
const at = new Date("2026-11-26T10:00:00.000Z");
const h = (init: Record<string, string>) => new Headers(init);

describe("feed validators", () => {
  it("give one ETag per set of inputs, and another when any of them changes", () => {
    expect(feedEtag(inputs)).toBe(feedEtag({ ...inputs, topModerated: [...inputs.topModerated] }));
    const changes: Partial<FeedInputs>[] = [
      { publishedTotal: 1283 },
      { topModerated: ["66f1c0a2e4b0000000000032:published", ...inputs.topModerated] },
      { catalog: { count: 312, changedAt: new Date("2026-11-20T09:12:45.000Z") } },
      { catalog: { count: 311, changedAt: inputs.catalog.changedAt } },
      { locale: "pt-BR" },
      { primaryDomain: "https://harborbirch.com" },
      { incentivizedReviews: true },
    ];
    for (const change of changes) expect(feedEtag({ ...inputs, ...change })).not.toBe(feedEtag(inputs));
  });

  it("answer If-None-Match first, weak or strong, a list or *", () => {
    const etag = feedEtag(inputs);
    expect(notModified(h({ "If-None-Match": etag }), etag, at)).toBe(true);
    expect(notModified(h({ "If-None-Match": `"x", W/${etag}` }), etag, at)).toBe(true);
    expect(notModified(h({ "If-None-Match": "*" }), etag, at)).toBe(true);
    expect(notModified(h({ "If-None-Match": '"x"', "If-Modified-Since": at.toUTCString() }), etag, at)).toBe(false);
  });

  it("answer If-Modified-Since to the second when no ETag is sent", () => {
    const etag = feedEtag(inputs);
    expect(notModified(h({ "If-Modified-Since": at.toUTCString() }), etag, new Date(at.getTime() + 400))).toBe(true);
    expect(notModified(h({ "If-Modified-Since": at.toUTCString() }), etag, new Date(at.getTime() + 1000))).toBe(false);
    expect(notModified(h({ "If-Modified-Since": "yesterday" }), etag, at)).toBe(false);
    expect(notModified(h({}), etag, at)).toBe(false);
  });
});
