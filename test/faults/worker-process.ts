import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

// A worker as production runs it: `workers/index.ts` in a process of its own, configured only by
// its environment, so that a drill can SIGKILL it in the middle of a job (no shutdown hook runs,
// its jobs stay locked until the lock lapses) and start another one on the same Redis and database.

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const READY = "worker connected to Redis";
const KEPT_LINES = 300;

export interface WorkerProcess {
  pid: number;
  /** SIGKILL, then wait for the exit. */
  kill(): Promise<void>;
  /** SIGTERM (finish the jobs in hand), then wait for the exit; resolves with its exit code. */
  stop(): Promise<number | null>;
  /** The last lines it logged, to explain a failure. */
  tail(): string;
}

/** Starts `node --import tsx workers/index.ts` and resolves once it reached Redis. */
export async function startWorkerProcess(env: Record<string, string>, label = "worker"): Promise<WorkerProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "workers/index.ts"], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, LOG_LEVEL: "info", ...env },
  });
  const lines: string[] = [];
  const keep = (line: string) => {
    lines.push(line);
    if (lines.length > KEPT_LINES) lines.shift();
  };
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const ready = new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on("line", (line) => {
      keep(line);
      if (line.includes(READY)) resolve();
    });
    createInterface({ input: child.stderr! }).on("line", keep);
    void exited.then(() => reject(new Error(`${label} exited before it was ready:\n${lines.join("\n")}`)));
  });
  const alive = () => child.exitCode === null && child.signalCode === null;
  const handle: WorkerProcess = {
    pid: child.pid!,
    async kill() {
      if (alive()) child.kill("SIGKILL");
      await exited;
    },
    async stop() {
      if (alive()) child.kill("SIGTERM");
      return exited;
    },
    tail: () => lines.slice(-60).join("\n"),
  };
  try {
    await ready;
  } catch (error) {
    await handle.kill();
    throw error;
  }
  return handle;
}
