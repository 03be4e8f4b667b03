import type { Logger } from "pino";
import type { Queues } from "../queues";
import { enqueueAddressProbe } from "../jobs";
import { observeAddressRefusal } from "../metrics";
import {
  gatedAdminFor,
  type AdminFor,
  createAddressRefusals,
  type AddressRefusals,
  type ParkedJob,
  ADMIN_ACCESS_PROBE,
  isAddressRefused,
} from "../shopify";

// The probe of a shop whose Admin API calls Shopify refused (IP allowlist): one cheap query
// (AdminAccessProbe, 1 point) on the maintenance queue, first after ADMIN_PROBE_MIN_MS, then
// doubling up to ADMIN_PROBE_MAX_MS, for as long as it is refused. When it passes, the state goes
// and the parked work is handed back (the worker resumes those jobs).

export function probeDelayMs(
  probes: number,
  limits: { ADMIN_PROBE_MIN_MS: number; ADMIN_PROBE_MAX_MS: number },
): number {
  return Math.min(limits.ADMIN_PROBE_MAX_MS, limits.ADMIN_PROBE_MIN_MS * 2 ** Math.min(probes, 30));
}

/** Queues the probe that follows `probes` refused ones and records when it is due. */
export async function scheduleAddressProbe(
  deps: {
    queues: Queues;
    refusals: AddressRefusals;
    config: { ADMIN_PROBE_MIN_MS: number; ADMIN_PROBE_MAX_MS: number };
  },
  shop: string,
  probes: number,
): Promise<Date> {
  const delay = probeDelayMs(probes, deps.config);
  const at = new Date(Date.now() + delay);
  await enqueueAddressProbe(deps.queues, shop, probes, delay);
  await deps.refusals.scheduled(shop, at);
  return at;
}

export type ProbeOutcome =
  | { outcome: "not-refused" }
  | { outcome: "passed"; parked: ParkedJob[]; refusedForMs: number }
  | { outcome: "refused"; probes: number; nextProbeAt: Date }
  | { outcome: "failed"; error: string; nextProbeAt: Date };

/**
 * One probe. `adminFor` must be the shop's plain client (not the gate's, which would refuse
 * without asking). Another failure (network, 5xx) is no answer either way: probed again later.
 */
export async function probeAddress(
  deps: {
    adminFor: AdminFor;
    queues: Queues;
    refusals: AddressRefusals;
    config: { ADMIN_PROBE_MIN_MS: number; ADMIN_PROBE_MAX_MS: number };
  },
  shop: string,
): Promise<ProbeOutcome> {
  const state = await deps.refusals.get(shop);
  if (!state) return { outcome: "not-refused" };
  try {
    const gql = await deps.adminFor(shop);
    await gql.query(ADMIN_ACCESS_PROBE);
  } catch (error) {
    const now = new Date();
    const delay = probeDelayMs(state.probes + 1, deps.config);
    const next = new Date(now.getTime() + delay);
    const probes = await deps.refusals.probed(shop, next, now);
    await enqueueAddressProbe(deps.queues, shop, probes, delay);
    if (isAddressRefused(error)) {
      await deps.refusals.refuse(shop, error.body, now);
      observeAddressRefusal("probe_refused", (await deps.refusals.refusedShops()).length);
      return { outcome: "refused", probes, nextProbeAt: next };
    }
    return { outcome: "failed", error: (error as Error).message, nextProbeAt: next };
  }
  const parked = await deps.refusals.clear(shop);
  observeAddressRefusal("recovered", (await deps.refusals.refusedShops()).length);
  return { outcome: "passed", parked, refusedForMs: Date.now() - state.since.getTime() };
}

/**
 * The gate as every process uses it: a shop's first refusal is logged, counted and has the probe
 * scheduled (which clears the state and re-queues parked work once Shopify accepts calls again).
 */
export function addressGatedAdmin(deps: {
  adminFor: AdminFor;
  queues: Queues;
  config: { REDIS_PREFIX: string; ADMIN_PROBE_MIN_MS: number; ADMIN_PROBE_MAX_MS: number };
  log: Logger;
}): { adminFor: AdminFor; refusals: AddressRefusals } {
  const { queues, config, log } = deps;
  const refusals = createAddressRefusals(queues.redis, config.REDIS_PREFIX);
  const adminFor = gatedAdminFor(deps.adminFor, refusals, async (shop, error) => {
    log.warn(
      { shop, detail: error.body },
      "Shopify refused this server's address (IP allowlist): Admin API work parked until a probe passes",
    );
    observeAddressRefusal("refused", (await refusals.refusedShops()).length);
    await scheduleAddressProbe({ queues, refusals, config }, shop, 0);
  });
  return { adminFor, refusals };
}
