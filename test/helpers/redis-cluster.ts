import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { freePort, NoRedisServerError, redisAnswers } from "../../sandbox/dev-local/local-redis";

// A private Redis Cluster of three masters (no replicas) on loopback ports, for the `cluster`
// project: redis-server in cluster mode, nothing kept on disk but the nodes' own cluster files in a
// temporary folder, removed when it stops.

export interface LocalCluster {
  /** REDIS_URL for REDIS_CLUSTER=1: the three nodes as seeds. */
  url: string;
  ports: number[];
  stop(): Promise<void>;
}

const MASTERS = 3;

/** Polls `probe` every 50 ms until it holds; fails after `timeoutMs` naming `what`. */
async function until(what: string, probe: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`redis cluster: ${what} not reached in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function clusterInfo(port: number): Promise<string> {
  const r = new Redis({
    port,
    host: "127.0.0.1",
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  r.on("error", () => undefined);
  try {
    await r.connect();
    return (await r.call("CLUSTER", "INFO")) as string;
  } catch {
    return "";
  } finally {
    r.disconnect();
  }
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once("exit", () => resolve()));
}

export async function startRedisCluster(): Promise<LocalCluster> {
  if (spawnSync("redis-server", ["--version"]).status !== 0) throw new NoRedisServerError();
  const dir = mkdtempSync(join(tmpdir(), "reviews-redis-cluster-"));
  const children: ChildProcess[] = [];
  const stop = async () => {
    for (const child of children) child.kill("SIGTERM");
    await Promise.all(children.map(exited));
    rmSync(dir, { recursive: true, force: true });
  };
  // Ports free now but not yet bound by the servers started before: none is handed out twice.
  const taken = new Set<number>();
  const anotherPort = async (): Promise<number> => {
    let port = await freePort();
    while (taken.has(port)) port = await freePort();
    taken.add(port);
    return port;
  };
  try {
    const ports: number[] = [];
    for (let i = 0; i < MASTERS; i++) {
      const port = await anotherPort();
      // The bus port (node to node) is set too: port + 10000, the default, may be taken or past 65535.
      const busPort = await anotherPort();
      ports.push(port);
      const child = spawn(
        "redis-server",
        [
          ...["--port", String(port), "--cluster-port", String(busPort), "--bind", "127.0.0.1"],
          ...["--cluster-enabled", "yes", "--cluster-config-file", `nodes-${port}.conf`, "--dir", dir],
          ...["--save", "", "--appendonly", "no", "--daemonize", "no"],
        ],
        { stdio: "ignore" },
      );
      children.push(child);
    }
    for (const port of ports) await until(`node ${port} answering`, () => redisAnswers(`redis://127.0.0.1:${port}`));
    const create = spawnSync(
      "redis-cli",
      ["--cluster", "create", ...ports.map((p) => `127.0.0.1:${p}`), "--cluster-replicas", "0", "--cluster-yes"],
      { encoding: "utf8", timeout: 60_000 },
    );
    if (create.status !== 0) throw new Error(`redis-cli --cluster create failed: ${create.stdout}${create.stderr}`);
    // Every node sees all slots served before a client is let at it: a client that reads the slots
    // from a node still joining would be sent back and forth.
    for (const port of ports)
      await until(`cluster_state:ok on ${port}`, async () => /cluster_state:ok/.test(await clusterInfo(port)));
    return { url: ports.map((p) => `redis://127.0.0.1:${p}`).join(","), ports, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
