import { describe, expect, it } from "vitest";
import { capText, decodeEntities, htmlToText, shortDescription } from "./product.text";

describe("product text", () => {
  it("decodes named, decimal and hex references, drops invalid code points, keeps unknown names", () => {
    expect(decodeEntities("&amp;&lt;&gt;&quot;&#39;&eacute;&#8217;&#x1F600;")).toBe("&<>\"'é’😀");
    expect(decodeEntities("a&#0;b&#xD800;c")).toBe("abc");
    expect(decodeEntities("&bogus; AT&T")).toBe("&bogus; AT&T");
  });

  it("treats source newlines as spaces and block tags as line breaks", () => {
    expect(htmlToText("<p>one\ntwo</p><p>three<br>four</p>")).toBe("one two\nthree\nfour");
    expect(htmlToText("<ul>\n<li><strong>Bold</strong> item</li>\n<li>Second</li></ul>")).toBe("Bold item\nSecond");
  });

  it("drops scripts, styles and comments with their content", () => {
    expect(htmlToText("<style>p{color:red}</style><p>Hi<!-- x --></p><script>alert(1)</script>")).toBe("Hi");
  });

  it("keeps a literal < that is not a tag", () => {
    expect(htmlToText("<p>a < b and 3 > 2</p>")).toBe("a < b and 3 > 2");
  });

  it("caps at a word boundary when one is near the end, and never splits a surrogate pair", () => {
    expect(capText("the quick brown fox jumps", 22)).toBe("the quick brown fox");
    expect(capText("the quick brown fox jumps", 22, true)).toBe("the quick brown fox…");
    // No boundary in the last fifth: a long word is cut rather than losing most of the text.
    expect(capText("supercalifragilistic word", 10)).toBe("supercalif");
    expect(capText("ab😀cd", 3)).toBe("ab");
    expect(capText("short", 10)).toBe("short");
  });

  it("short description: first sentence of at least 20 characters, else a capped first paragraph", () => {
    expect(shortDescription("Warm and soft. Really.")).toBe("Warm and soft. Really.");
    expect(shortDescription("A wool beanie for the cold days. Knitted in Portugal.")).toBe(
      "A wool beanie for the cold days.",
    );
    expect(shortDescription("Operating voltage 2.4 V - 5.5V\nmore")).toBe("Operating voltage 2.4 V - 5.5V");
    expect(shortDescription("日本語の説明文です。二つ目の文です。")).toBe("日本語の説明文です。二つ目の文です。");
  });
});
