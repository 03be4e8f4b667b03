import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { streamLines } from "./stream-lines";

const collect = async (input: AsyncIterable<string | Uint8Array>) => {
  const out: string[] = [];
  for await (const line of streamLines(input)) out.push(line);
  return out;
};

describe("lines of a stream", () => {
  it("GIVEN lines split anywhere across chunks, CRLF and a multi-byte character cut in two THEN the same lines", async () => {
    const text = '{"title":"Camiseta açaí"}\r\n{"id":2}\n\n{"id":3}';
    const bytes = Buffer.from(text, "utf8");
    // One byte a chunk: every boundary, the split "ç" and "í" included.
    const chunks = [...bytes].map((b) => Uint8Array.of(b));
    expect(await collect(Readable.from(chunks))).toEqual(['{"title":"Camiseta açaí"}', '{"id":2}', "", '{"id":3}']);
    expect(await collect(Readable.from(["a\nb\n"]))).toEqual(["a", "b"]);
  });

  it("GIVEN a reader that stops taking lines THEN the stream is not read far ahead of it", async () => {
    // A large result served faster than it is used: ten thousand 1 KB lines, made only when read.
    let produced = 0;
    const line = `${"x".repeat(1023)}\n`;
    const source = new Readable({
      highWaterMark: 16 * 1024,
      read() {
        if (produced >= 10_000) return void this.push(null);
        produced++;
        this.push(line);
      },
    });
    const lines = streamLines(source);
    for (let i = 0; i < 10; i++) await lines.next();
    // Let the source run as far as it would on its own.
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(produced).toBeLessThan(200);
    await lines.return();
  });
});
