import type { Logger } from "pino";
import type { Db } from "../app/.server/db";

// The trail of webhook deliveries (WebhookDelivery rows), written by group commit: a group opens
// when a job finishes and is written GROUP_WINDOW_MS later, and every job that finishes meanwhile
// (or while a write is under way) joins it, so a storm of deliveries costs one insert per group
// instead of one each. Without the window, jobs finishing a millisecond apart each found the
// previous write done and wrote alone (about two records a group at 450 deliveries/s, half the
// statements the worker ran). A job still completes only after its own record is written, so the
// record a retried or stalled job checks is there; the window adds that much to each job.

export interface DeliveryRecord {
  id: string;
  shopId: string;
  topic: string;
  eventId: string | null;
  status: "queued" | "done" | "failed";
  error: string | null;
  processedAt: Date | null;
}

export interface DeliveryRecorder {
  /** Resolves once the record is stored; rejects when it could not be (the job then fails). */
  record(entry: DeliveryRecord): Promise<void>;
  /** Written groups and records, for benchmarks and tests. */
  stats(): { groups: number; records: number };
}

const MAX_GROUP = 500;
export const GROUP_WINDOW_MS = 10;

export function createDeliveryRecorder(db: Db, log: Logger, windowMs = GROUP_WINDOW_MS): DeliveryRecorder {
  type Waiting = { entry: DeliveryRecord; resolve: () => void; reject: (e: unknown) => void };
  let waiting: Waiting[] = [];
  let writing = false;
  let opening: NodeJS.Timeout | undefined;
  let groups = 0;
  let records = 0;

  async function drain() {
    opening = undefined;
    writing = true;
    while (waiting.length) {
      const group = waiting.slice(0, MAX_GROUP);
      waiting = waiting.slice(MAX_GROUP);
      try {
        await writeGroup(group.map((w) => w.entry));
        groups++;
        records += group.length;
        for (const w of group) w.resolve();
      } catch (error) {
        // One bad record (its shop just redacted, a race with another process) must not fail the
        // others: write them one by one and let each answer for itself.
        log.debug(
          { err: (error as Error).message, size: group.length },
          "delivery records: group write failed, writing singly",
        );
        for (const w of group) await writeOne(w.entry).then(w.resolve, w.reject);
      }
    }
    writing = false;
  }

  async function writeGroup(entries: DeliveryRecord[]) {
    // Nearly every record is new (one job per webhook id): insert the group at once. A record that
    // exists already (a retried job) makes the insert fail, and the group is written singly.
    const byId = new Map(entries.map((e) => [e.id, e]));
    await db.webhookDelivery.createMany({ data: [...byId.values()] });
  }

  async function writeOne(e: DeliveryRecord) {
    await db.webhookDelivery.upsert({
      where: { id: e.id },
      create: e,
      update: { status: e.status, error: e.error, processedAt: e.processedAt },
    });
  }

  return {
    record(entry) {
      return new Promise<void>((resolve, reject) => {
        waiting.push({ entry, resolve, reject });
        if (!writing && !opening) opening = setTimeout(() => void drain(), windowMs);
      });
    },
    stats: () => ({ groups, records }),
  };
}
