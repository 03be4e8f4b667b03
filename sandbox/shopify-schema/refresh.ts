import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { SHOPIFY_API_VERSION } from "../../app/.server/shopify";

// `npm run schema:refresh [-- <dev-mcp version>]`: copies Shopify's published Admin schema for the
// app's API version out of the @shopify/dev-mcp npm package (dist/data/admin_<version>.json.gz, an
// introspection result), and the schema of the next version it ships: its newest release candidate
// when that is newer than the app's version, else `unstable` (what Shopify previews of the next
// one). Where they came from goes to source.json. The package is ~14 MB packed and brings the
// Shopify CLI, Hydrogen and React Router along: the files are all the tests and the simulated store
// need, so they are copied rather than depended on. Run it after changing SHOPIFY_API_VERSION.

const here = fileURLToPath(new URL(".", import.meta.url));
const wanted = process.argv[2] ?? "latest";
const work = mkdtempSync(join(tmpdir(), "dev-mcp-"));
const sha256 = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");
try {
  const packed = execFileSync("npm", ["pack", `@shopify/dev-mcp@${wanted}`, "--silent", "--pack-destination", work], {
    encoding: "utf8",
  })
    .trim()
    .split("\n")
    .pop()!;
  const tarball = join(work, packed);
  const data = "package/dist/data";
  execFileSync("tar", ["-xzf", tarball, "-C", work, "package/package.json", `${data}/supported-versions-schema.json`]);
  const pkg = JSON.parse(readFileSync(join(work, "package/package.json"), "utf8")) as {
    name: string;
    version: string;
    license?: string;
  };
  const versions = JSON.parse(readFileSync(join(work, data, "supported-versions-schema.json"), "utf8")) as {
    admin: { name: string; releaseCandidate?: boolean }[];
  };
  const releaseCandidate = versions.admin.find((v) => v.releaseCandidate)?.name ?? null;
  const nextVersion = releaseCandidate && releaseCandidate > SHOPIFY_API_VERSION ? releaseCandidate : "unstable";
  const files: Record<string, string> = {};
  for (const version of [SHOPIFY_API_VERSION, nextVersion]) {
    const file = `admin_${version}.json.gz`;
    execFileSync("tar", ["-xzf", tarball, "-C", work, `${data}/${file}`]);
    copyFileSync(join(work, data, file), join(here, file));
    files[file] = sha256(join(here, file));
  }
  const source = {
    package: pkg.name,
    version: pkg.version,
    license: pkg.license ?? null,
    apiVersion: SHOPIFY_API_VERSION,
    releaseCandidate,
    nextVersion,
    sha256: files,
  };
  writeFileSync(join(here, "source.json"), `${JSON.stringify(source, null, 2)}\n`);
  console.log(`${Object.keys(files).join(", ")} from ${pkg.name}@${pkg.version} (next version: ${nextVersion})`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
