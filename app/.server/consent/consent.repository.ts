import { Prisma } from "@prisma/client";
import { groupCommit, groupOf, type Db } from "../db";
import { CONSENT_CHANNELS, consentState, type ConsentChannel, type ConsentState, type ConsentStates } from "../mapping";

// Each customer's marketing consent per channel (model CustomerConsent). Reports come out of order
// (webhooks retried hours later with their old payload, a GraphQL read racing a webhook): each
// channel is written only when the report is at least as new as what is kept, by Shopify's
// consent_updated_at, in one conditional UPDATE, so two writers never lose each other's channel.
// Equal times: the later arrival wins. A report without a time ("never changed") only fills a
// channel that has no time either.

export interface ChannelConsent {
  state: ConsentState;
  /** Shopify's consent_updated_at; null when Shopify gave none (consent never changed). */
  updatedAt: Date | null;
}

export type ConsentReport = Partial<Record<ConsentChannel, ChannelConsent>>;

export interface CustomerConsentRecord {
  customerId: string;
  channels: ConsentReport;
  /** When the one GraphQL read answered; null: never read. */
  readAt: Date | null;
}

const STATE = { email: "emailState", sms: "smsState", whatsapp: "whatsappState" } as const;
const AT = { email: "emailUpdatedAt", sms: "smsUpdatedAt", whatsapp: "whatsappUpdatedAt" } as const;

type Row = Awaited<ReturnType<Db["customerConsent"]["findUnique"]>>;

function toRecord(row: NonNullable<Row>): CustomerConsentRecord {
  const channels: ConsentReport = {};
  for (const channel of CONSENT_CHANNELS) {
    const state = consentState(row[STATE[channel]]);
    if (state) channels[channel] = { state, updatedAt: row[AT[channel]] };
  }
  return { customerId: row.customerId, channels, readAt: row.readAt };
}

/** The states alone, for the order mapper and the policy. */
export function statesOf(record: CustomerConsentRecord | null | undefined): ConsentStates {
  const out: ConsentStates = {};
  for (const channel of CONSENT_CHANNELS) {
    const c = record?.channels[channel];
    if (c) out[channel] = c.state;
  }
  return out;
}

const isUniqueViolation = (e: unknown) => e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2002";

type Key = { shopId: string; customerId: string };

// The order path asks for one customer's consent per order: concurrent asks of a worker process go
// to the database as one query (db/group-commit.ts). A read joins a group that starts after it was
// asked, so it sees every write its caller made before.
const groupedReads = (db: Db) =>
  groupOf(db, "consent reads", () =>
    groupCommit(async (keys: Key[]) => {
      const byShop = new Map<string, Set<string>>();
      for (const k of keys) byShop.set(k.shopId, (byShop.get(k.shopId) ?? new Set()).add(k.customerId));
      const rows = await db.customerConsent.findMany({
        where: { OR: [...byShop].map(([shopId, ids]) => ({ shopId, customerId: { in: [...ids] } })) },
      });
      const found = new Map(rows.map((r) => [`${r.shopId}\u0000${r.customerId}`, r]));
      return keys.map((k) => {
        const row = found.get(`${k.shopId}\u0000${k.customerId}`);
        return row ? toRecord(row) : null;
      });
    }),
  );

export function createConsentRepository(db: Db) {
  async function ensureRow(shopId: string, customerId: string): Promise<void> {
    try {
      await db.customerConsent.create({ data: { shopId, customerId } });
    } catch (e) {
      // Another writer made it first: the row is there, which is all this wanted.
      if (!isUniqueViolation(e)) throw e;
    }
  }

  /** Writes one channel if the report is not older than what is kept. True when written. */
  async function writeChannel(
    shopId: string,
    customerId: string,
    channel: ConsentChannel,
    report: ChannelConsent,
  ): Promise<boolean> {
    const at = AT[channel];
    const newerOrEqual: Prisma.CustomerConsentWhereInput =
      report.updatedAt === null ? { [at]: null } : { OR: [{ [at]: null }, { [at]: { lte: report.updatedAt } }] };
    const { count } = await db.customerConsent.updateMany({
      where: { shopId, customerId, ...newerOrEqual },
      data: { [STATE[channel]]: report.state, [at]: report.updatedAt },
    });
    return count > 0;
  }

  return {
    get(shopId: string, customerId: string): Promise<CustomerConsentRecord | null> {
      return groupedReads(db)({ shopId, customerId });
    },

    /**
     * Records what a webhook or a read reported, channel by channel (newer wins), and with `read`
     * marks the customer as read. Returns the channels that were written.
     */
    async record(
      shopId: string,
      customerId: string,
      report: ConsentReport,
      options: { read?: Date } = {},
    ): Promise<ConsentChannel[]> {
      await ensureRow(shopId, customerId);
      const written: ConsentChannel[] = [];
      for (const channel of CONSENT_CHANNELS) {
        const r = report[channel];
        if (r && (await writeChannel(shopId, customerId, channel, r))) written.push(channel);
      }
      if (options.read)
        await db.customerConsent.updateMany({ where: { shopId, customerId }, data: { readAt: options.read } });
      return written;
    },

    /** customers/redact. */
    async deleteCustomer(shopId: string, customerId: string): Promise<number> {
      return (await db.customerConsent.deleteMany({ where: { shopId, customerId } })).count;
    },

    /** shop/redact. */
    async deleteShop(shopId: string): Promise<number> {
      return (await db.customerConsent.deleteMany({ where: { shopId } })).count;
    },
  };
}

export type ConsentRepository = ReturnType<typeof createConsentRepository>;
