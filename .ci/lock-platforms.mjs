#!/usr/bin/env node
// Adds to package-lock.json the other platforms' optional packages (rollup's and msgpackr-extract's
// native builds for macOS, Windows, musl, ARM...) that `npm install` on this machine left out,
// because the registry mirror reachable here lacks those versions. Without them `npm ci` refuses
// the lock as "out of sync" on every machine. Each entry gets the exact version its parent asks
// for, marked optional, with the os/cpu/libc of the nearest version the registry here knows (they
// never change between versions), and no `resolved`/`integrity`: npm resolves them from the
// registry on the machine that needs them (and only there).
// Run after any `npm install` that changed the lock: `node .ci/lock-platforms.mjs`.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";

const LOCK = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(LOCK, "utf8"));
const packages = lock.packages;
const view = (spec, ...fields) => {
  try {
    return JSON.parse(
      execFileSync("npm", ["view", spec, ...fields, "--json"], {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "ignore"],
      }) || "null",
    );
  } catch {
    return null;
  }
};

let added = 0;
for (const [path, entry] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    // Where npm would look for it: beside the parent's own node_modules, else up the tree.
    const nested = `${path ? `${path}/` : ""}node_modules/${name}`;
    const hoisted = `node_modules/${name}`;
    if (packages[nested] || packages[hoisted]) continue;
    const versions = view(name, "versions") ?? [];
    const known = [...(Array.isArray(versions) ? versions : [versions])].reverse()[0];
    if (!known) {
      console.warn(`skipped ${name}@${version}: the registry here does not know the package`);
      continue;
    }
    const meta = view(`${name}@${known}`, "os", "cpu", "libc") ?? {};
    packages[hoisted] = {
      version,
      optional: true,
      ...(meta.os ? { os: meta.os } : {}),
      ...(meta.cpu ? { cpu: meta.cpu } : {}),
      ...(meta.libc ? { libc: meta.libc } : {}),
    };
    added++;
    console.log(`added ${name}@${version} (${[meta.os, meta.cpu, meta.libc].flat().filter(Boolean).join(" ")})`);
  }
}
// npm keeps the packages map sorted by path.
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))),
);
writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`${added} entries added`);
