import { describe, expect, it } from "vitest";
import { inBatches, keysetPages } from "./batches";

// The two ways a query over many shops stays within the database's parameter limit.

describe("inBatches", () => {
  it("GIVEN 1,201 values THEN three statements of at most 500 bind them, and the answers are joined in order", async () => {
    const sizes: number[] = [];
    const out = await inBatches(
      Array.from({ length: 1201 }, (_, i) => i),
      async (slice) => {
        sizes.push(slice.length);
        return slice.map((n) => n * 2);
      },
    );
    expect(sizes).toEqual([500, 500, 201]);
    expect(out).toEqual(Array.from({ length: 1201 }, (_, i) => i * 2));
  });

  it("GIVEN no values THEN no statement runs", async () => {
    let calls = 0;
    expect(await inBatches([], async () => (calls++, []))).toEqual([]);
    expect(calls).toBe(0);
  });
});

describe("keysetPages", () => {
  const rows = Array.from({ length: 1000 }, (_, i) => ({ id: `k${String(i).padStart(4, "0")}` }));
  const table = (afters: (string | null)[]) => async (after: string | null, take: number) => {
    afters.push(after);
    return rows.filter((r) => after === null || r.id > after).slice(0, take);
  };

  it("GIVEN a table of exactly two pages THEN each page starts after the last key of the one before, and an empty read ends it", async () => {
    const afters: (string | null)[] = [];
    const pages: number[] = [];
    for await (const page of keysetPages(table(afters), 500)) pages.push(page.length);
    expect(pages).toEqual([500, 500]);
    expect(afters).toEqual([null, "k0499", "k0999"]);
  });

  it("GIVEN a short last page THEN no further read", async () => {
    const afters: (string | null)[] = [];
    let seen = 0;
    for await (const page of keysetPages(table(afters), 300)) seen += page.length;
    expect(seen).toBe(1000);
    expect(afters).toEqual([null, "k0299", "k0599", "k0899"]);
  });
});
