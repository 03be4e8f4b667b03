import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

// The web process as production runs it: `npm run build`, then `npm start` (server/main.ts) in a
// process of its own. The build goes to a directory named by a hash of what it is built from, so
// test files (and runs) share one build while the sources are unchanged, and never test a stale one.

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const KEPT_LINES = 300;

function sourceHash(): string {
  const hash = createHash("sha256");
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (!entry.name.includes(".test.")) hash.update(path).update(readFileSync(join(ROOT, path)));
    }
  };
  walk("app");
  for (const file of ["vite.config.ts", "package-lock.json", "tsconfig.json"])
    hash.update(file).update(readFileSync(join(ROOT, file)));
  return hash.digest("hex").slice(0, 16);
}

/** Builds the app once per source state (`remix vite:build`); returns the build directory. */
export async function builtApp(): Promise<string> {
  const dir = join(ROOT, "node_modules", ".cache", "reviews-test-build", sourceHash());
  const done = join(dir, "server", "index.js");
  if (existsSync(done)) return dir;
  const lock = `${dir}.lock`;
  mkdirSync(join(dir, ".."), { recursive: true });
  // One builder per source state: others wait for its result (a lock left by a killed run lapses).
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (existsSync(done)) return dir;
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 300_000)
        rmSync(lock, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  try {
    if (existsSync(done)) return dir;
    rmSync(dir, { recursive: true, force: true });
    const result = spawnSync(process.execPath, [join(ROOT, "node_modules/@remix-run/dev/dist/cli.js"), "vite:build"], {
      cwd: ROOT,
      env: { ...process.env, REMIX_BUILD_DIR: dir, NODE_ENV: "production" },
      encoding: "utf8",
    });
    if (result.status !== 0) throw new Error(`remix vite:build failed:\n${result.stdout}\n${result.stderr}`);
    return dir;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

export interface WebProcess {
  pid: number;
  port: number;
  url: string;
  /** Resolves with the exit code (or signal) when the process ends. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  lines: string[];
  signal(name: NodeJS.Signals): void;
  tail(): string;
}

/** `node --import tsx server/main.ts` on a build; resolves once it listens. */
export async function startWebProcess(buildDir: string, env: Record<string, string>): Promise<WebProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      NODE_ENV: "production",
      LOG_LEVEL: "info",
      PORT: "0",
      HOST: "127.0.0.1",
      REMIX_BUILD_DIR: buildDir,
      ...env,
    },
  });
  const lines: string[] = [];
  const keep = (line: string) => {
    lines.push(line);
    if (lines.length > KEPT_LINES) lines.shift();
  };
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal, at: Date.now() })),
  );
  const port = await new Promise<number>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on("line", (line) => {
      keep(line);
      const m = line.includes("web server listening") ? /"port":(\d+)/.exec(line) : null;
      if (m) resolve(Number(m[1]));
    });
    createInterface({ input: child.stderr! }).on("line", keep);
    void exited.then(() => reject(new Error(`web process exited before it listened:\n${lines.join("\n")}`)));
  });
  return {
    pid: child.pid!,
    port,
    url: `http://127.0.0.1:${port}`,
    exited,
    lines,
    signal: (name) => void child.kill(name),
    tail: () => lines.slice(-60).join("\n"),
  };
}
