import { describe, expect, it } from "vitest";
import { element, escapeXml, xmlChars } from "./xml-text";

describe("xml text", () => {
  it("escapes the five markup characters in text and attributes", () => {
    expect(escapeXml(`Tom & "Jerry" <b>'s</b>`)).toBe("Tom &amp; &quot;Jerry&quot; &lt;b&gt;&apos;s&lt;/b&gt;");
    expect(element("name", "A&B", { is_anonymous: `"x"<` })).toBe(
      '<name is_anonymous="&quot;x&quot;&lt;">A&amp;B</name>',
    );
  });

  it("drops what XML 1.0 cannot carry and keeps tabs, new lines, accents, emoji and CJK", () => {
    expect(xmlChars("a\u0000b\u0008c\u000bd\u001fe\ufffff")).toBe("abcdef");
    expect(xmlChars("lone \ud800 and \udc00 surrogates")).toBe("lone  and  surrogates");
    expect(xmlChars("Café\t🍰\n日本語\r")).toBe("Café\t🍰\n日本語\r");
  });
});
