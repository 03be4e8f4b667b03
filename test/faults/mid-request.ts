import { eventually } from "../helpers/contexts";
import type { Emulator, RequestLogEntry } from "../../sandbox/emulator/server";

// The kill of a drill lands while a request is on the wire: the emulator holds the request
// (a latency fault on its path), the drill waits until enough earlier ones were accepted and the
// next one is held, tells the emulator to drop that connection once the latency ends (the service
// never gets it), kills the worker, and waits for the drop.

export const postsTo = (emu: Emulator, path: string, since = 0) =>
  emu.control.requests(since).filter((r) => r.method === "POST" && r.path === path);

/** Returns the request that was in flight when `kill` ran. */
export async function killMidRequest(
  emu: Emulator,
  path: string,
  o: { since: number; accepted: number; kill: () => Promise<void> },
): Promise<RequestLogEntry> {
  const log = await eventually(
    async () => postsTo(emu, path, o.since),
    (rs) => rs.filter((r) => r.status === 200).length >= o.accepted && rs.some((r) => r.status === null),
    60_000,
  );
  const inFlight = log.find((r) => r.status === null)!;
  emu.control.setFaults({ dropNext: 1, paths: `^${path}$` });
  await o.kill();
  await eventually(
    async () => postsTo(emu, path, inFlight.seq - 1)[0],
    (r) => r?.status === 0,
    30_000,
  );
  emu.control.clearFaults();
  return inFlight;
}
