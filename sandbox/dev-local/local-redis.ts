import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { Redis } from "ioredis";

// Redis on a developer's machine: the one at REDIS_URL when it answers, else a private
// redis-server on a free port (nothing kept on disk). Used by `npm run dev:local` and the tests.

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });
}

export async function redisAnswers(url: string): Promise<boolean> {
  const r = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: 1000,
    retryStrategy: () => null,
  });
  r.on("error", () => undefined);
  try {
    await r.connect();
    return (await r.ping()) === "PONG";
  } catch {
    return false;
  } finally {
    r.disconnect();
  }
}

export class NoRedisServerError extends Error {
  constructor() {
    super(
      "Redis is needed: install it (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis) or set REDIS_URL.",
    );
    this.name = "NoRedisServerError";
  }
}

/** Starts redis-server from PATH on a free port and waits until it answers. */
export async function startPrivateRedis(): Promise<{ url: string; port: number; child: ChildProcess }> {
  if (spawnSync("redis-server", ["--version"]).status !== 0) throw new NoRedisServerError();
  const port = await freePort();
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: "ignore" },
  );
  const url = `redis://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (await redisAnswers(url)) return { url, port, child };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill("SIGTERM");
  throw new Error("redis-server did not start");
}
