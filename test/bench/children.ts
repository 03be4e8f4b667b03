import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer as createNetServer, type AddressInfo } from "node:net";
import { createInterface } from "node:readline";
import { builtApp, startWebProcess } from "../helpers/built-app";
import { fileURLToPath } from "node:url";
import type { RequestLogEntry } from "../../sandbox/emulator/server";

// The processes of a benchmark: the reviews emulator and the simulated store each run in a child
// of their own (what they hold in memory is the services', not ours), and so does every measured
// run, so that its RSS is its own. Children are started as `node --import tsx` (no wrapper
// process) from the repository root, and stopped through the handle that started them.

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export interface Child {
  process: ChildProcess;
  /** SIGTERM, then wait for the exit. */
  stop(): Promise<void>;
  exited: Promise<number | null>;
}

function startTsx(
  file: string,
  args: string[],
  opts: { onStderr?: (line: string) => void; nodeFlags?: string[] } = {},
): { child: ChildProcess; lines: AsyncIterator<string>; handle: Child } {
  const { onStderr } = opts;
  // BENCH_CPU_PROF=<dir>: every child writes a V8 CPU profile there (to see where the time goes).
  const profile = process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const nodeFlags = [...(opts.nodeFlags ?? []), ...profile];
  const child = spawn(process.execPath, [...nodeFlags, "--import", "tsx", file, ...args], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: process.env,
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const stderr = createInterface({ input: child.stderr! });
  stderr.on("line", (l) => (onStderr ? onStderr(l) : process.stderr.write(`${l}\n`)));
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const handle: Child = {
    process: child,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
  return { child, lines, handle };
}

async function firstLine(
  lines: AsyncIterator<string>,
  what: string,
  match: (l: string) => boolean,
  exited: Promise<number | null>,
): Promise<string> {
  const read = (async () => {
    for (;;) {
      const next = await lines.next();
      if (next.done) throw new Error(`${what} ended before it was ready`);
      if (match(next.value)) return next.value;
    }
  })();
  const died = exited.then((code) => {
    throw new Error(`${what} exited (${code}) before it was ready`);
  });
  return Promise.race([read, died]);
}

/** Peak resident set (VmHWM) of a live process, in MB; null where /proc is not available. */
export function peakRssOf(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

// ---------- the emulator ----------

export interface EmulatorInfo {
  origin: string;
  baseUrl: string;
  authUrl: string;
  rateUrl: string;
  customer: string;
  clientId: string;
  clientSecret: string;
}

export interface EmulatorControlClient {
  /** The request log after `since` (seq), newest last. */
  requests(since?: number): Promise<RequestLogEntry[]>;
  state(customer: string): Promise<{ products: { sku: string; name?: string }[] }>;
}

/** The emulator's control API (`/__emulator`) over HTTP. */
export function emulatorControl(origin: string): EmulatorControlClient {
  const get = async <T>(path: string): Promise<T> => {
    const res = await fetch(`${origin}/__emulator${path}`);
    if (!res.ok) throw new Error(`emulator control ${path}: ${res.status}`);
    return (await res.json()) as T;
  };
  return {
    async requests(since = 0) {
      return (await get<{ requests: RequestLogEntry[] }>(`/requests?since=${since}`)).requests;
    },
    state: (customer) => get(`/state?customer=${encodeURIComponent(customer)}`),
  };
}

export interface EmulatorChild extends Child, EmulatorControlClient {
  info: EmulatorInfo;
}

/** `strict`: answers with the documented fields only (sandbox/emulator/strict.ts). */
export async function startEmulatorChild(opts: { strict?: boolean } = {}): Promise<EmulatorChild> {
  const { lines, handle } = startTsx("sandbox/emulator/main.ts", [
    "--port",
    "0",
    "--quiet",
    ...(opts.strict ? ["--strict"] : []),
  ]);
  const line = await firstLine(lines, "emulator", (l) => l.startsWith("reviews emulator:"), handle.exited);
  const field = (k: string) => {
    const m = new RegExp(`${k}=(\\S+)`).exec(line);
    if (!m) throw new Error(`emulator line without ${k}: ${line}`);
    return m[1];
  };
  const baseUrl = field("base_url");
  const origin = new URL(baseUrl).origin;
  const info: EmulatorInfo = {
    origin,
    baseUrl,
    authUrl: field("auth_url"),
    rateUrl: field("rate_url"),
    customer: field("customer"),
    clientId: field("client_id"),
    clientSecret: field("client_secret"),
  };
  return { ...handle, ...emulatorControl(origin), info };
}

// ---------- the simulated store ----------

export interface StoreInfo {
  shop: string;
  /** SHOPIFY_ORIGIN for the store. */
  shopifyOrigin: string;
  /** POST: a fresh offline session (expiring pair), as an install stores it. */
  sessionUrl: string;
  primaryDomain: string;
  /** POST {id, patch} here to change a product the way a merchant would (see store-child.ts). */
  controlUrl: string;
}

export interface StoreChild extends Child {
  info: StoreInfo;
}

export async function startStoreChild(o: { products: number; seed: number; shop: string }): Promise<StoreChild> {
  const { lines, handle } = startTsx("test/bench/store-child.ts", [
    "--products",
    String(o.products),
    "--seed",
    String(o.seed),
    "--shop",
    o.shop,
  ]);
  const line = await firstLine(lines, "simulated store", (l) => l.startsWith("{"), handle.exited);
  return { ...handle, info: JSON.parse(line) as StoreInfo };
}

// ---------- a measured run ----------

/**
 * Runs `test/bench/main.ts --child ...` and resolves with the JSON of its last stdout line.
 * Its stderr (progress lines) is shown with a prefix.
 */
export async function runChild<T>(args: string[], label: string, flags: string[] = []): Promise<T> {
  // --expose-gc: the run collects garbage once before it reads its baseline RSS.
  const { lines, handle } = startTsx("test/bench/main.ts", args, {
    onStderr: (l) => console.log(`  [${label}] ${l}`),
    // BENCH_CHILD_NODE_FLAGS: more flags for the measured run (say, a heap limit, to tell garbage
    // V8 has not collected yet from memory the run holds); they come last, so they win.
    nodeFlags: ["--expose-gc", ...flags, ...(process.env.BENCH_CHILD_NODE_FLAGS?.split(" ").filter(Boolean) ?? [])],
  });
  let last: string | undefined;
  for (;;) {
    const next = await lines.next();
    if (next.done) break;
    last = next.value;
  }
  const code = await handle.exited;
  if (code !== 0 || !last) throw new Error(`${label} failed (exit ${code})`);
  return JSON.parse(last) as T;
}

/**
 * Starts `test/bench/main.ts --child ...` that runs until told to stop (a worker process): resolves
 * once it printed its ready line; `stop()` sends SIGTERM and resolves with its last JSON line.
 */
export async function startServiceChild<T>(
  args: string[],
  label: string,
  nodeFlags: string[] = [],
): Promise<{ pid: number | undefined; ready: string; stop(): Promise<T> }> {
  const { child, lines, handle } = startTsx("test/bench/main.ts", args, {
    onStderr: (l) => console.error(`[${label}] ${l}`),
    nodeFlags,
  });
  const ready = await firstLine(lines, label, (l) => l.startsWith('{"ready"'), handle.exited);
  return {
    pid: child.pid,
    /** The ready line itself (JSON: what the child tells about itself). */
    ready,
    async stop() {
      const rest = (async () => {
        let last: string | undefined;
        for (;;) {
          const next = await lines.next();
          if (next.done) return last;
          last = next.value;
        }
      })();
      await handle.stop();
      const last = await rest;
      if (!last) throw new Error(`${label} ended without its result line`);
      return JSON.parse(last) as T;
    },
  };
}

/** A loopback port nobody listens on now, for a child that must be told its port in advance. */
export async function freePort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** User + system CPU a process has used so far, in seconds (Linux /proc); NaN where it cannot be read. */
export function cpuSecondsOf(pid: number | undefined): number {
  if (!pid) return Number.NaN;
  try {
    // After the command name (which may hold spaces), utime and stime are the 12th and 13th fields.
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** A process's Prometheus text: each sample by its full name with labels. */
export async function scrapeMetrics(url: string): Promise<Map<string, number>> {
  const text = await (await fetch(url)).text();
  const samples = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const at = line.lastIndexOf(" ");
    samples.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return samples;
}

/**
 * The web process as production runs it (`npm start` on a build) with its metrics on a loopback
 * port; with BENCH_CPU_PROF it writes a CPU profile too, as the bench's other children do.
 */
export async function startMeasuredWebProcess(env: Record<string, string>) {
  const buildDir = await builtApp();
  const metricsPort = await freePort();
  const web = await startWebProcess(buildDir, {
    ...env,
    METRICS_PORT: String(metricsPort),
    METRICS_HOST: "127.0.0.1",
    ...(process.env.BENCH_CPU_PROF ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${process.env.BENCH_CPU_PROF}` } : {}),
  });
  return { web, metricsUrl: `http://127.0.0.1:${metricsPort}/metrics` };
}
