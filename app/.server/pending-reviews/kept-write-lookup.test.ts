import { describe, expect, it } from "vitest";
import { findInNewestFirst, type ListPage } from "./kept-write-lookup";

// The paging of the look-up on its own: a list served in pages of whatever size the service uses.

type Entry = { id: string; at: number };
const entries = (ats: number[]): Entry[] => ats.map((at, i) => ({ id: `e${i}`, at }));

function pager(list: Entry[], size: number) {
  const reads: number[] = [];
  const read = async (skip: number): Promise<ListPage<Entry>> => {
    reads.push(skip);
    return { results: list.slice(skip, skip + size), total: list.length };
  };
  return { read, reads };
}
const at = (e: Entry) => e.at;

describe("findInNewestFirst", () => {
  it("GIVEN a page size of 7 THEN pages are read with skip 0, 7, 14 until the match", async () => {
    const list = entries(Array.from({ length: 30 }, (_, i) => 1000 - i));
    const p = pager(list, 7);
    const r = await findInNewestFirst(p.read, at, (e) => e.id === "e17", 900);
    expect(r.found?.id).toBe("e17");
    expect(p.reads).toEqual([0, 7, 14]);
  });

  it("GIVEN newest-first entries THEN the read stops at the page holding the first one older than the bound", async () => {
    const list = entries(Array.from({ length: 100 }, (_, i) => 1000 - i));
    const p = pager(list, 20);
    const r = await findInNewestFirst(p.read, at, () => false, 955);
    expect(r).toMatchObject({ found: null, exhausted: false });
    expect(p.reads).toEqual([0, 20, 40]);
  });

  it("GIVEN a service that ignores the order asked for THEN the time says nothing and the whole list is read", async () => {
    const list = entries([1000, 10, 990, 980, 5, 970, 960, 950]);
    const p = pager(list, 3);
    const r = await findInNewestFirst(p.read, at, (e) => e.id === "e7", 900);
    expect(r.found?.id).toBe("e7");
    expect(p.reads).toEqual([0, 3, 6]);
  });

  it("GIVEN short pages, an empty page or the bound THEN the read ends without looping", async () => {
    const short = { read: async (skip: number) => ({ results: skip < 4 ? entries([1000, 999]) : [], total: 100 }) };
    expect(await findInNewestFirst(short.read, at, () => false, 0)).toMatchObject({
      found: null,
      pages: 3,
      exhausted: false,
    });
    const endless = { read: async () => ({ results: entries([1000]), total: 1_000_000 }) };
    expect(await findInNewestFirst(endless.read, at, () => false, 0, 5)).toMatchObject({
      found: null,
      pages: 5,
      exhausted: true,
    });
  });
});
