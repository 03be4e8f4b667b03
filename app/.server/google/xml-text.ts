// The feed is written by hand, so every value passes here on its way out. Text and attribute
// values are escaped the same way (quotes too), which keeps one rule for both. Characters XML 1.0
// does not allow at all (most C0 controls, lone surrogates, U+FFFE/U+FFFF) cannot be escaped: a
// review pasted from a word processor can carry them, and one of them makes Google refuse the
// whole file, so they are dropped.

const NOT_XML =
  // eslint-disable-next-line no-control-regex -- the point is to find the characters XML forbids
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

/** Only what XML 1.0 can carry. */
export const xmlChars = (value: string): string => value.replace(NOT_XML, "");

/** A value ready for an element's text or a quoted attribute. */
export const escapeXml = (value: string): string => xmlChars(value).replace(/[&<>"']/g, (c) => ENTITIES[c]!);

/** `<name attrs>value</name>`, every part escaped. */
export function element(name: string, value: string, attrs: Record<string, string> = {}): string {
  const a = Object.entries(attrs)
    .map(([k, v]) => ` ${k}="${escapeXml(v)}"`)
    .join("");
  return `<${name}${a}>${escapeXml(value)}</${name}>`;
}
