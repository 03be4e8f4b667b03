import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { Redis } from "ioredis";

// Tests run on real Redis: REDIS_URL when it answers, else a private redis-server on a free port.
// Each test file then works under a key prefix of its own (see redis.ts), so a shared Redis is safe.

let child: ChildProcess | undefined;

async function answers(url: string): Promise<boolean> {
  const r = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1000, retryStrategy: () => null });
  r.on("error", () => undefined);
  try {
    await r.connect();
    await r.ping();
    return true;
  } catch {
    return false;
  } finally {
    r.disconnect();
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });
}

export async function setup() {
  const url = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
  if (await answers(url)) {
    process.env.REDIS_URL = url;
    return;
  }
  if (spawnSync("redis-server", ["--version"]).status !== 0) {
    throw new Error("Tests need Redis: set REDIS_URL or install redis-server (apt-get install -y redis-server).");
  }
  const port = await freePort();
  child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
  const privateUrl = `redis://127.0.0.1:${port}`;
  for (let i = 0; i < 100 && !(await answers(privateUrl)); i++) await new Promise((r) => setTimeout(r, 50));
  process.env.REDIS_URL = privateUrl;
}

export async function teardown() {
  child?.kill("SIGTERM");
}
