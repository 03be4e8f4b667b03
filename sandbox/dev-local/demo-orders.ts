import { z } from "zod";
import { parseConfig } from "../../app/.server/config";
import { QueueName, createQueues } from "../../app/.server/queues";
import { DEMO_ACCOUNT } from "./demo";
import { consentState, optOutsFor, sameOptOuts, type ConsentStates, type OptOuts } from "../../app/.server/mapping";
import { defaultSettings } from "../../app/.server/settings";

// The offline demo's second act, after the catalog: the simulated store places, pays, ships, partly
// ships, delivers and cancels a few dozen orders, sending every change to the running app as signed
// webhooks (the production ingress: route, queue, workers). The demo then reads what the reviews
// service holds and prints it: orders by status against what the story implies, and two sample
// orders in full, with the buyer's name, e-mail and phone masked.

// The store's answer (sandbox/simulated-store/order-story.ts StoryOutcome), checked at this edge.
const storyOutcomeSchema = z.object({
  orders: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      fate: z.string(),
      steps: z.array(z.string()),
      expectedStatus: z.string(),
      consent: z.record(z.string(), z.string()).nullable(),
    }),
  ),
  webhooks: z.record(z.string(), z.number()),
  notAcknowledged: z.number(),
});
type StoryOutcome = z.infer<typeof storyOutcomeSchema>;

const storedOrderSchema = z.looseObject({
  orderId: z.string(),
  status: z.string(),
  optOutEmail: z.boolean().optional(),
  optOutSMS: z.boolean().optional(),
  optOutWhatsApp: z.boolean().optional(),
});
type StoredOrder = z.infer<typeof storedOrderSchema>;
const customerStateSchema = z.object({ orders: z.array(storedOrderSchema) });

export const STATUS_ORDER = ["created", "authorized", "paid", "shipped", "delivered", "cancelled"] as const;

export interface OrderDemoResult {
  placed: number;
  /** Story orders the service holds, by the status it holds them in. */
  received: Record<string, number>;
  /** Every story order is upstream with the status its story implies and the default policy's opt-outs. */
  matched: boolean;
  /** The delivered orders of the story: Shopify id and the number shoppers see. */
  delivered: { id: string; name: string }[];
}

// ---------------------------------------------------------------------------------------------
// Opt-outs: what the default policy makes of each buyer's consent at the end of the story

const CHANNELS = [
  { channel: "email", label: "e-mail", field: "optOutEmail" },
  { channel: "sms", label: "SMS", field: "optOutSMS" },
  { channel: "whatsapp", label: "WhatsApp", field: "optOutWhatsApp" },
] as const;

/** The opt-outs the shop's default policy implies for a story order (a guest: nothing known). */
export function impliedOptOuts(order: StoryOutcome["orders"][number]): OptOuts {
  const states: ConsentStates = {};
  for (const { channel } of CHANNELS) {
    const state = consentState(order.consent?.[channel]);
    if (state) states[channel] = state;
  }
  return optOutsFor(defaultSettings.orders.optOut, states);
}

const heldOptOuts = (o: StoredOrder | undefined): OptOuts | undefined =>
  o && typeof o.optOutEmail === "boolean" && typeof o.optOutSMS === "boolean" && typeof o.optOutWhatsApp === "boolean"
    ? { optOutEmail: o.optOutEmail, optOutSMS: o.optOutSMS, optOutWhatsApp: o.optOutWhatsApp }
    : undefined;

/** Per channel: orders opted out as the policy implies and as the service holds them. */
export function optOutTable(
  story: StoryOutcome["orders"],
  held: ReadonlyMap<string, StoredOrder>,
): { lines: string[]; matching: number } {
  const lines = ["  channel     opted out (policy / service)   review requests allowed (policy / service)"];
  for (const { label, field } of CHANNELS) {
    const policy = story.filter((o) => impliedOptOuts(o)[field]).length;
    const service = story.filter((o) => heldOptOuts(held.get(o.id))?.[field] === true).length;
    const allowedService = story.filter((o) => heldOptOuts(held.get(o.id))?.[field] === false).length;
    lines.push(
      `  ${label.padEnd(9)} ${String(policy).padStart(6)} / ${String(service).padEnd(22)} ${String(story.length - policy).padStart(6)} / ${allowedService}`,
    );
  }
  const matching = story.filter((o) => {
    const h = heldOptOuts(held.get(o.id));
    return h !== undefined && sameOptOuts(h, impliedOptOuts(o));
  }).length;
  return { lines, matching };
}

// ---------------------------------------------------------------------------------------------
// What is printed (pure)

/** "Avery Johnson" → "Avery J.": enough to recognise a sample, not to identify a buyer. */
export function maskName(name: string): string {
  const [first, ...rest] = name.trim().split(/\s+/);
  return [first, ...rest.map((part) => `${[...part][0]}.`)].join(" ");
}

export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  return at > 0 ? `${[...email][0]}•••${email.slice(at)}` : "•••";
}

export function maskPhone(phone: string): string {
  return phone.length > 5 ? `${phone.slice(0, 2)}${"•".repeat(phone.length - 4)}${phone.slice(-2)}` : "•••";
}

/** The stored order without the service's bookkeeping, contact data masked. */
export function piiLight(order: StoredOrder): Record<string, unknown> {
  const { _id: _i, customer: _c, verificationTokenId: _t, __v: _v, created: _cr, updated: _u, ...rest } = order;
  const out: Record<string, unknown> = { ...rest };
  if (typeof rest.name === "string") out.name = maskName(rest.name);
  if (typeof rest.email === "string") out.email = maskEmail(rest.email);
  if (typeof rest.phone === "string") out.phone = maskPhone(rest.phone);
  return out;
}

/** A stored order in one line: status, items, the buyer masked, the opt-outs. */
export function sampleLine(order: StoredOrder): string {
  const light = piiLight(order);
  const items = Array.isArray(light.items) ? light.items.length : 0;
  const buyer = [light.name, light.email, light.phone].filter((v): v is string => typeof v === "string");
  const optedOut = CHANNELS.filter(({ field }) => order[field] === true).map(({ label }) => label);
  return [
    `status ${order.status}`,
    `${items} ${items === 1 ? "item" : "items"}`,
    ...(buyer.length ? [`buyer ${buyer.join(", ")}`] : []),
    `opted out of ${optedOut.length ? optedOut.join(", ") : "nothing"}`,
  ].join("; ");
}

/** Orders per status: what the story implies and what the service holds. */
export function statusTable(
  story: StoryOutcome["orders"],
  held: ReadonlyMap<string, StoredOrder>,
): { lines: string[]; received: Record<string, number> } {
  const expected = new Map<string, number>(STATUS_ORDER.map((s) => [s, 0]));
  const received = new Map<string, number>(STATUS_ORDER.map((s) => [s, 0]));
  let missing = 0;
  for (const o of story) {
    expected.set(o.expectedStatus, (expected.get(o.expectedStatus) ?? 0) + 1);
    const status = held.get(o.id)?.status;
    if (status) received.set(status, (received.get(status) ?? 0) + 1);
    else missing++;
  }
  const lines = ["  status        story  service"];
  for (const [status, n] of expected)
    lines.push(`  ${status.padEnd(12)} ${String(n).padStart(6)} ${String(received.get(status) ?? 0).padStart(8)}`);
  if (missing) lines.push(`  ${"(not there)".padEnd(12)} ${"0".padStart(6)} ${String(missing).padStart(8)}`);
  lines.push(
    `  ${"total".padEnd(12)} ${String(story.length).padStart(6)} ${String(story.length - missing).padStart(8)}`,
  );
  return { lines, received: Object.fromEntries(received) };
}

// ---------------------------------------------------------------------------------------------
// The act

export async function runOrderDemo(options: {
  env: NodeJS.ProcessEnv;
  /** The simulated store's control origin (its main.ts prints it). */
  storeControlUrl: string;
  emulatorOrigin: string;
  say: (line: string) => void;
  /** A state that moves (a terminal rewrites it in place); `say` when not given. */
  progress?: (line: string) => void;
  /** Waits on something slow, showing that it waits; runs it plainly when not given. */
  step?: <T>(label: string, work: () => Promise<T>) => Promise<T>;
  /** Sample orders in full (JSON) rather than one line each. */
  verbose?: boolean;
  count?: number;
  timeoutMs?: number;
}): Promise<OrderDemoResult> {
  const { say } = options;
  const progress = options.progress ?? say;
  const step = options.step ?? (<T>(_label: string, work: () => Promise<T>) => work());
  const count = options.count ?? 36;
  say(
    `order story: the simulated store places ${count} orders, then pays, ships, partly ships, delivers and cancels them, each change sent to the app as signed webhooks`,
  );
  const story = await step("order story: the store sends its webhooks", async () => {
    const res = await fetch(`${options.storeControlUrl}/orders/story?count=${count}`, { method: "POST" });
    if (!res.ok) throw new Error(`the simulated store's order story failed: ${res.status} ${await res.text()}`);
    return storyOutcomeSchema.parse(await res.json());
  });
  const sent = Object.values(story.webhooks).reduce((a, b) => a + b, 0);
  const topics = Object.entries(story.webhooks)
    .map(([t, n]) => `${t} ${n}`)
    .join(", ");
  say(
    `order story: ${sent} webhooks sent (${topics}); ${story.notAcknowledged ? `${story.notAcknowledged} not acknowledged` : "all acknowledged"}`,
  );

  const config = parseConfig(options.env);
  const queues = createQueues({
    redisUrl: config.REDIS_URL,
    cluster: config.REDIS_CLUSTER,
    prefix: config.REDIS_PREFIX,
    role: "producer",
  });
  let held = new Map<string, StoredOrder>();
  try {
    const webhooksBusy = async () => {
      const c = await queues.get(QueueName.webhooks).getJobCounts("waiting", "active", "delayed", "prioritized");
      return Object.values(c).reduce((a, b) => a + b, 0);
    };
    const deadline = Date.now() + (options.timeoutMs ?? 60_000);
    let last = "";
    for (;;) {
      const state = customerStateSchema.parse(
        await (await fetch(`${options.emulatorOrigin}/__emulator/state?customer=${DEMO_ACCOUNT.customer}`)).json(),
      );
      held = new Map(state.orders.map((o) => [o.orderId, o]));
      const done = settledCount(story.orders, held);
      const line = `orders at their story's status and opt-outs upstream: ${done} of ${story.orders.length}`;
      // Settled, and nothing left in the queue that could still change an order.
      const finished = (done === story.orders.length && (await webhooksBusy()) === 0) || Date.now() > deadline;
      if (finished) {
        // A terminal keeps the last progress line; a log already has it.
        if (line !== last) say(line);
        break;
      }
      if (line !== last) progress(line);
      last = line;
      await new Promise((r) => setTimeout(r, 500));
    }
  } finally {
    await queues.close();
  }

  const table = statusTable(story.orders, held);
  say("orders by status (what the story implies / what the reviews service holds):");
  for (const line of table.lines) say(line);
  const consentChanges = story.webhooks["customers_email_marketing_consent/update"] ?? 0;
  const optOuts = optOutTable(story.orders, held);
  say(
    `opt-outs per channel under the default policy (e-mail unless the buyer unsubscribed; SMS and WhatsApp only with consent), after ${
      consentChanges +
      (story.webhooks["customers_marketing_consent/update"] ?? 0) +
      (story.webhooks["customers_whats_app_marketing_consent/update"] ?? 0)
    } consent changes:`,
  );
  for (const line of optOuts.lines) say(line);
  say(`opt-outs as the default policy implies: ${optOuts.matching} of ${story.orders.length} orders`);
  const samples = [
    story.orders.find((o) => o.fate === "partially shipped"),
    story.orders.find((o) => o.steps.includes("shipment 2 delivered")) ??
      story.orders.find((o) => o.fate === "delivered"),
  ];
  for (const sample of samples) {
    const order = sample && held.get(sample.id);
    if (!sample || !order) continue;
    if (options.verbose) {
      say(`sample order ${sample.name} (${sample.steps.join(" → ")}), as the service holds it:`);
      for (const line of JSON.stringify(piiLight(order), null, 2).split("\n")) say(`  ${line}`);
    } else {
      say(`sample order ${sample.name} (${sample.steps.join(" → ")}): ${sampleLine(order)} (--verbose: in full)`);
    }
  }
  const matched = settledCount(story.orders, held) === story.orders.length;
  say(
    `the reviews service now holds ${story.orders.filter((o) => held.has(o.id)).length} of the ${story.orders.length} orders placed: ${STATUS_ORDER.map((s) => `${s} ${table.received[s] ?? 0}`).join(", ")}`,
  );
  const delivered = story.orders
    .filter((o) => o.expectedStatus === "delivered")
    .map((o) => ({ id: o.id, name: o.name }));
  return { placed: story.orders.length, received: table.received, matched, delivered };
}

/** Story orders upstream with their story's status and the opt-outs the default policy implies. */
function settledCount(story: StoryOutcome["orders"], held: ReadonlyMap<string, StoredOrder>): number {
  return story.filter((o) => {
    const h = held.get(o.id);
    const optOuts = heldOptOuts(h);
    return h?.status === o.expectedStatus && optOuts !== undefined && sameOptOuts(optOuts, impliedOptOuts(o));
  }).length;
}
