import { StringDecoder } from "node:string_decoder";

// The lines of a stream, read only as fast as they are taken. readline's async iterator reads its
// input as fast as it arrives and keeps every line the loop has not taken yet: a 100,000-product
// bulk result served faster than the sync sends it sat in memory (peak heap 418 MB at 100k against
// about 40 MB at 10k). A stream's own async iterator reads a chunk only when the next is asked for.

/** Yields each line without its `\n` (and a `\r` before it); the last line may lack the `\n`. */
export async function* streamLines(input: AsyncIterable<string | Uint8Array>): AsyncGenerator<string, void, undefined> {
  const decoder = new StringDecoder("utf8");
  let rest = "";
  for await (const chunk of input) {
    rest += typeof chunk === "string" ? chunk : decoder.write(chunk as Buffer);
    let start = 0;
    for (let end = rest.indexOf("\n"); end !== -1; end = rest.indexOf("\n", start)) {
      yield rest.slice(start, end > start && rest[end - 1] === "\r" ? end - 1 : end);
      start = end + 1;
    }
    rest = rest.slice(start);
  }
  rest += decoder.end();
  if (rest) yield rest.endsWith("\r") ? rest.slice(0, -1) : rest;
}
