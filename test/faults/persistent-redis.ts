import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, NoRedisServerError, redisAnswers } from "../../sandbox/dev-local/local-redis";

// A private redis-server with the persistence production needs (AOF, fsync on every write), on a
// free port and a temporary directory, that a drill can kill like a crashed machine and start again
// on the same port and data.

export interface PersistentRedis {
  url: string;
  /** SIGKILL: no chance to write anything more than what it already wrote. */
  kill(): Promise<void>;
  /** Starts again on the same port and directory; resolves once it answers. */
  start(): Promise<void>;
  /** Stops it (if running) and removes its data. */
  close(): Promise<void>;
}

export async function startPersistentRedis(options: { appendonly?: "yes" | "no" } = {}): Promise<PersistentRedis> {
  if (spawnSync("redis-server", ["--version"]).status !== 0) throw new NoRedisServerError();
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "fault-redis-"));
  const url = `redis://127.0.0.1:${port}`;
  const args = [
    "--port",
    String(port),
    "--bind",
    "127.0.0.1",
    "--dir",
    dir,
    "--save",
    "",
    "--maxmemory-policy",
    "noeviction",
  ];
  args.push("--appendonly", options.appendonly ?? "yes", "--appendfsync", "always");
  let child: ChildProcess | null = null;

  const start = async () => {
    const proc = spawn("redis-server", args, { stdio: "ignore" });
    child = proc;
    for (let i = 0; i < 100; i++) {
      if (await redisAnswers(url)) return;
      if (proc.exitCode !== null) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`redis-server did not start on port ${port}`);
  };
  const kill = async () => {
    const proc = child;
    child = null;
    if (!proc || proc.exitCode !== null) return;
    const exited = new Promise((r) => proc.once("exit", r));
    proc.kill("SIGKILL");
    await exited;
  };

  await start();
  return {
    url,
    kill,
    start,
    async close() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
