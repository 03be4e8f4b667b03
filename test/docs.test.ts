import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { DEV_LOCAL_PORTS } from "../sandbox/dev-local/dev-local-ports";

// The README is what a newcomer reads first, and docs/ is where the detail went: both are kept
// honest here. Short, the two commands first, every link landing on a file of the repository, no
// address outside this machine, and every port the demo opens named.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");
const README = read("README.md");
const DOCS = readdirSync(join(ROOT, "docs"))
  .filter((f) => f.endsWith(".md"))
  .map((f) => `docs/${f}`);
const DOCUMENTS = ["README.md", ...DOCS];

/** Fenced code blocks and inline code: what a reader copies, not links. */
const withoutCode = (text: string) => text.replace(/^```[\s\S]*?^```/gm, "").replace(/`[^`\n]*`/g, "code");

/** Markdown links and images: [text](target) and <target> autolinks. */
export function linkTargets(markdown: string): string[] {
  const text = withoutCode(markdown);
  const inline = [...text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
  const references = [...text.matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/gm)].map((m) => m[1]!);
  const auto = [...text.matchAll(/<((?:https?|mailto):[^>\s]+)>/g)].map((m) => m[1]!);
  return [...inline, ...references, ...auto];
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function anchorsOf(markdown: string): Set<string> {
  const headings = [...markdown.replace(/^```[\s\S]*?^```/gm, "").matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)].map(
    (m) => m[1]!,
  );
  return new Set(headings.map(headingAnchor));
}

const LOCAL_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]", "0.0.0.0"]);

/** Every http(s) address naming a host that is not this machine (templates like https://{shop} name none). */
export function externalAddresses(text: string): string[] {
  return [...text.matchAll(/https?:\/\/([^\s/?#)`'"<>\]]*)[^\s)`'"<>\]]*/g)]
    .filter(([, authority]) => {
      const host = authority!.replace(/^[^@]*@/, "").replace(/:\d*$/, "");
      return host !== "" && !host.startsWith("{") && !LOCAL_HOSTS.has(host);
    })
    .map(([address]) => address);
}

describe("the README", () => {
  it("is at most 250 lines", () => {
    expect(README.split("\n").length).toBeLessThanOrEqual(250);
  });

  it("opens with the title and then the two commands, in its first code block", () => {
    const lines = README.split("\n");
    expect(lines[0]).toMatch(/^# \S/);
    const first = /^```sh\n([\s\S]*?)^```/m.exec(README);
    expect(first).not.toBeNull();
    // Nothing but blank lines between the title and the block.
    expect(README.slice(lines[0]!.length, first!.index).trim()).toBe("");
    const commands = first![1]!
      .trim()
      .split("\n")
      .map((l) => l.replace(/\s+#.*$/, "").trim());
    expect(commands).toEqual(["npm install && npm run dev:local", "npm test"]);
  });

  it("has the test command CI runs (.ci/run runs the README's second command)", () => {
    const testCommand = /^```sh\n[^\n]*\n([^#\n]*?)\s+#/m.exec(README)![1]!;
    expect(read(".ci/run")).toMatch(new RegExp(`^\\s*timeout "[^"]+" ${testCommand.replace(/ /g, "\\s+")}\\s*$`, "m"));
  });

  it("names every port dev:local listens on, and the variable that moves it", () => {
    for (const { port, variable } of Object.values(DEV_LOCAL_PORTS)) {
      expect(README, `port ${port}`).toMatch(new RegExp(`\\b${port}\\b`));
      expect(README, variable).toContain(`\`${variable}\``);
    }
  });

  it("tells whoever scripts screenshots about the headless user agent, and docs/offline-sandbox.md says how", () => {
    expect(README).toMatch(/410[^.]*headless user agent/);
    expect(README).toContain("docs/offline-sandbox.md#scripting-a-browser-screenshots");
    expect(read("docs/offline-sandbox.md")).toMatch(/answers 410 to a headless user agent/);
  });

  it("links every document of docs/", () => {
    const targets = new Set(linkTargets(README).map((t) => t.split("#")[0]));
    for (const doc of DOCS) expect(targets, doc).toContain(doc);
  });
});

describe("README.md and docs/", () => {
  it.each(DOCUMENTS)(
    "%s: every relative link resolves to a file of the repository (and a heading, when it names one)",
    (doc) => {
      const broken: string[] = [];
      for (const target of linkTargets(read(doc))) {
        if (/^(https?|mailto):/.test(target)) continue; // judged by the next test
        const [path, anchor] = target.split("#") as [string, string | undefined];
        const file = path === "" ? join(ROOT, doc) : resolve(dirname(join(ROOT, doc)), decodeURIComponent(path));
        if (relative(ROOT, file).startsWith("..") || !existsSync(file)) {
          broken.push(`${target}: no such file in the repository`);
          continue;
        }
        if (
          anchor &&
          statSync(file).isFile() &&
          file.endsWith(".md") &&
          !anchorsOf(readFileSync(file, "utf8")).has(anchor)
        ) {
          broken.push(`${target}: no heading #${anchor}`);
        }
      }
      expect(broken).toEqual([]);
    },
  );

  it.each(DOCUMENTS)("%s: no http(s) address outside this machine", (doc) => {
    expect(externalAddresses(read(doc))).toEqual([]);
  });
});

describe("the checks themselves", () => {
  it("find links, anchors and external addresses as a reader would see them", () => {
    expect(
      linkTargets('see [a](docs/a.md#x), ![img](i.png "t"), `[not](a.md)`, <https://e.org/x>\n\n[r]: ../b.md'),
    ).toEqual(["docs/a.md#x", "i.png", "../b.md", "https://e.org/x"]);
    expect(headingAnchor("Ratings back into Shopify (back-sync)")).toBe("ratings-back-into-shopify-back-sync");
    expect(headingAnchor("Theme app extension (extensions/reviews-theme)")).toBe(
      "theme-app-extension-extensionsreviews-theme",
    );
    expect(
      externalAddresses(
        "http://127.0.0.1:3000/app https://{shop}/admin https:// http://localhost:8 see https://shopify.dev/x",
      ),
    ).toEqual(["https://shopify.dev/x"]);
  });
});
