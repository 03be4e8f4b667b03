import {
  ATTRS,
  ATTR_VALUES,
  CHILDREN,
  FEED_SCHEMA_URL,
  FEED_SCHEMA_VERSION,
  VALUES,
  XS_BOOLEAN,
  type ValueType,
} from "./feed-schema";

// A checker of product review feeds against Google's description of schema 2.4 (feed-schema.ts:
// the reference page and the sample feed; the XSD itself cannot be fetched from this build's
// network). It checks what that description states: each element's children, their order and
// counts, attributes and their values, the types of the text (xs:boolean, xs:dateTime, URLs,
// enumerations such as collection_method), ratings within their scale, unique review ids; and what
// Google's matching rules refuse (a product with no GTIN, and no MPN or SKU with a brand). Pure;
// the tokenizer reads the XML this app writes (elements, attributes, text, the five entities),
// not XML in general: a DOCTYPE, CDATA or comment is itself reported.

export interface FeedProblem {
  path: string;
  message: string;
}

interface Node {
  name: string;
  attrs: Record<string, string>;
  children: Node[];
  text: string;
}

const DATE_TIME = /^-?\d{4,}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/;
const ENTITY: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decode(raw: string, path: string, problems: FeedProblem[]): string {
  return raw.replace(/&(#x[0-9a-fA-F]+|#\d+|\w+);|&/g, (m, name: string | undefined) => {
    if (!name) {
      problems.push({ path, message: "unescaped &" });
      return m;
    }
    if (name.startsWith("#x")) return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith("#")) return String.fromCodePoint(parseInt(name.slice(1), 10));
    if (name in ENTITY) return ENTITY[name]!;
    problems.push({ path, message: `unknown entity &${name};` });
    return m;
  });
}

/** The element tree, or problems when the text is not XML of the shape this app writes. */
function parse(xml: string, problems: FeedProblem[]): Node | null {
  const body = xml.replace(/^\uFEFF?<\?xml[^?]*\?>\s*/, "");
  if (body === xml) problems.push({ path: "/", message: "missing XML declaration" });
  const stack: Node[] = [];
  let root: Node | null = null;
  const token = /<(\/?)([A-Za-z_][\w.:-]*)((?:\s+[\w.:-]+\s*=\s*"[^"]*")*)\s*(\/?)>|<[!?][^>]*>|([^<]+)/gy;
  let m: RegExpExecArray | null;
  let at = 0;
  while ((m = token.exec(body)) !== null) {
    at = token.lastIndex;
    const path = "/" + stack.map((n) => n.name).join("/");
    if (m[5] !== undefined) {
      if (stack.length) stack[stack.length - 1]!.text += decode(m[5], path, problems);
      else if (m[5].trim()) problems.push({ path, message: "text outside the root element" });
      continue;
    }
    if (m[2] === undefined) {
      problems.push({ path, message: `unexpected markup ${m[0].slice(0, 20)}` });
      continue;
    }
    if (m[1]) {
      const open = stack.pop();
      if (!open || open.name !== m[2]) {
        problems.push({ path, message: `</${m[2]}> closes ${open ? `<${open.name}>` : "nothing"}` });
        return null;
      }
      continue;
    }
    const attrs: Record<string, string> = {};
    for (const a of m[3]!.matchAll(/([\w.:-]+)\s*=\s*"([^"]*)"/g)) {
      if (a[1]! in attrs) problems.push({ path, message: `attribute ${a[1]} twice` });
      attrs[a[1]!] = decode(a[2]!, path, problems);
    }
    const node: Node = { name: m[2], attrs, children: [], text: "" };
    if (stack.length) stack[stack.length - 1]!.children.push(node);
    else if (root) {
      problems.push({ path, message: "a second root element" });
      return null;
    } else root = node;
    if (!m[4]) stack.push(node);
  }
  if (at !== body.length) problems.push({ path: "/", message: `not XML at offset ${at}` });
  if (stack.length) problems.push({ path: "/", message: `<${stack[stack.length - 1]!.name}> is never closed` });
  return stack.length ? null : root;
}

function checkChildren(node: Node, path: string, problems: FeedProblem[]) {
  const rule = CHILDREN[node.name];
  if (!rule) {
    if (node.children.length) problems.push({ path, message: `<${node.name}> holds elements` });
    return;
  }
  if (node.text.trim()) problems.push({ path, message: `text in <${node.name}>` });
  let i = 0;
  for (const [name, min, max] of rule) {
    let n = 0;
    while (i < node.children.length && node.children[i]!.name === name) {
      n++;
      i++;
    }
    if (n < min) problems.push({ path, message: `<${name}> missing` });
    if (n > max) problems.push({ path, message: `<${name}> more than ${max === 1 ? "once" : max}` });
  }
  if (i < node.children.length) {
    problems.push({ path, message: `<${node.children[i]!.name}> not allowed here (order or name)` });
  }
}

/** Why a value is not of its type, or null. */
function typeProblem(type: ValueType, v: string): string | null {
  switch (type.kind) {
    case "boolean":
      return XS_BOOLEAN.has(v) ? null : `not an xs:boolean: ${v}`;
    case "dateTime":
      return DATE_TIME.test(v) && !Number.isNaN(Date.parse(v)) ? null : `not an xs:dateTime: ${v}`;
    case "url":
      return isUrl(v) ? null : `not an http(s) URL: ${v}`;
    case "enum":
      return type.values.includes(v) ? null : `${v} is not one of ${type.values.join(", ")}`;
    case "pattern":
      return type.pattern.test(v) ? null : `not ${type.describe}: ${v}`;
    case "version":
      return v === FEED_SCHEMA_VERSION ? null : `version ${v}, expected ${FEED_SCHEMA_VERSION}`;
  }
}

function checkAttributes(node: Node, path: string, problems: FeedProblem[]) {
  const allowed = ATTRS[node.name] ?? {};
  for (const name of Object.keys(node.attrs))
    if (!(name in allowed)) problems.push({ path, message: `attribute ${name} not allowed` });
  for (const [name, required] of Object.entries(allowed))
    if (required && !(name in node.attrs)) problems.push({ path, message: `attribute ${name} missing` });
  for (const [name, type] of Object.entries(ATTR_VALUES[node.name] ?? {})) {
    const v = node.attrs[name];
    const problem = v === undefined ? null : typeProblem(type, v);
    if (problem) problems.push({ path, message: `${node.name} ${name}: ${problem}` });
  }
}

const isUrl = (v: string) => {
  if (!/^https?:\/\/[^/?#\s]+/i.test(v)) return false;
  try {
    new URL(v);
    return true;
  } catch {
    return false;
  }
};

function checkValue(node: Node, path: string, problems: FeedProblem[]) {
  if (CHILDREN[node.name]) return;
  const v = node.text;
  if (!v.trim()) {
    problems.push({ path, message: `<${node.name}> is empty` });
    return;
  }
  const type = VALUES[node.name];
  const problem = type ? typeProblem(type, v) : null;
  if (problem) problems.push({ path, message: `<${node.name}> ${problem}` });
  if (node.name === "overall") {
    const [min, max, value] = [node.attrs.min, node.attrs.max, v].map(Number) as [number, number, number];
    if (![min, max, value].every(Number.isFinite) || min >= max || value < min || value > max)
      problems.push({ path, message: `rating ${v} not within ${node.attrs.min}..${node.attrs.max}` });
  }
}

/** Google's matching: a GTIN, or an MPN or a SKU together with a brand. */
function checkIdentifiers(product: Node, path: string, problems: FeedProblem[]) {
  const ids = product.children.find((c) => c.name === "product_ids");
  const has = (name: string) => !!ids?.children.some((c) => c.name === name && c.children.length);
  if (!(has("gtins") || ((has("mpns") || has("skus")) && has("brands"))))
    problems.push({ path, message: "product without a GTIN, MPN + brand or SKU + brand" });
}

/** Every problem found, in document order; empty for a feed Google's 2.4 description accepts. */
export function checkProductReviewFeed(xml: string): FeedProblem[] {
  const problems: FeedProblem[] = [];
  const root = parse(xml, problems);
  if (!root) return problems;
  if (root.name !== "feed") problems.push({ path: "/", message: `root <${root.name}>, expected <feed>` });
  const location = root.attrs["xsi:noNamespaceSchemaLocation"];
  if (location !== undefined && location !== FEED_SCHEMA_URL)
    problems.push({ path: "/feed", message: `schema location ${location}, expected ${FEED_SCHEMA_URL}` });
  const ids = new Set<string>();
  const walk = (node: Node, path: string) => {
    checkChildren(node, path, problems);
    checkAttributes(node, path, problems);
    checkValue(node, path, problems);
    if (node.name === "review_id") {
      if (ids.has(node.text)) problems.push({ path, message: `duplicate review_id ${node.text}` });
      ids.add(node.text);
    }
    if (node.name === "product") checkIdentifiers(node, path, problems);
    node.children.forEach((c, i) => walk(c, `${path}/${c.name}[${i}]`));
  };
  walk(root, `/${root.name}`);
  return problems;
}
