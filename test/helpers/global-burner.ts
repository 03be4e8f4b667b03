import { spawn, type ChildProcess } from "node:child_process";
import { availableParallelism } from "node:os";

// The loaded mode of the fault drills (`npm run test:faults:loaded`): one busy process per core for
// as long as the drills run, so that they meet a machine with no idle core, as they do in CI beside
// other work. Each burner is bounded twice: it stops by itself after FAULTS_BURN_MAX_MS (default
// 15 minutes), and as soon as the process that started it is gone (a vitest killed without its
// teardown leaves no burner behind). The teardown stops them and waits for their exit.

const BURNER = `
const end = Date.now() + Number(process.argv[1]);
const parent = process.ppid;
for (let i = 0; ; i++) {
  if ((i & 0xfffff) === 0 && (Date.now() > end || process.ppid !== parent)) process.exit(0);
}
`;

let burners: ChildProcess[] = [];

export function setup() {
  const count = Number(process.env.FAULTS_BURNERS ?? availableParallelism());
  const maxMs = Number(process.env.FAULTS_BURN_MAX_MS ?? 15 * 60_000);
  burners = Array.from({ length: count }, () =>
    spawn(process.execPath, ["-e", BURNER, String(maxMs)], { stdio: "ignore" }),
  );
  console.info(
    `[faults-loaded] ${count} burner process(es) keep the cores busy (pids ${burners.map((b) => b.pid).join(", ")})`,
  );
}

export async function teardown() {
  await Promise.all(
    burners.map(
      (b) =>
        new Promise<void>((resolve) => {
          if (b.exitCode !== null || b.signalCode !== null) return resolve();
          b.once("exit", () => resolve());
          b.kill("SIGKILL");
        }),
    ),
  );
  burners = [];
}
