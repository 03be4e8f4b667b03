// Survey (NPS) answers for a customer: deterministic per customer, spread over the twelve months
// before `BASE` with the mood changing through the year (so a score by month has a shape), every
// score 0 to 10 present, some with a comment, one in twenty still partial (auto-saved). Ids are
// stable: seeding the same count twice adds nothing; a larger count adds the difference.
import { stableId } from "./ids";
import { prng } from "./seed";
import type { Store } from "./store";

export interface SeedNpsOptions {
  customer: string;
  count: number;
}

const NAMES = [
  "Jane Doe",
  "John Smith",
  "Maria Garcia",
  "Wei Chen",
  "Amara Okafor",
  "Lucas Martin",
  "Sofia Rossi",
  "Kenji Tanaka",
  "Ines Pereira",
  "Omar Haddad",
];
const COMMENTS: Record<"promoter" | "passive" | "detractor", string[]> = {
  promoter: ["Great shop!", "Fast delivery and lovely packaging.", "Will buy again.", "", "Love it"],
  passive: ["Good.", "OK, delivery could be faster.", "", "Fine."],
  detractor: ["Late delivery.", "Packaging could be better.", "Item arrived damaged.", "", "Meh"],
};
const DAY = 86_400_000;
const BASE = Date.UTC(2026, 9, 1, 12, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString();

/** Adds answers up to `count` in all; answers how many the customer now holds. */
export function seedNpsAnswers(store: Store, opts: SeedNpsOptions): { customer: string; nps: number } {
  const cs = store.customer(opts.customer);
  const surveyId = stableId(opts.customer, "seed-survey");
  for (let i = 0; i < opts.count; i++) {
    const id = stableId(opts.customer, "seed-nps", i);
    if (cs.nps.has(id)) continue;
    const rand = prng(`${opts.customer}:nps:${i}`);
    const daysAgo = Math.floor(rand() * 360);
    // Happier answers in recent months: the chance of a promoter grows from 35% to 65% over the year.
    const mood = 0.65 - (daysAgo / 360) * 0.3;
    const roll = rand();
    const rating =
      roll < mood
        ? 9 + Math.floor(rand() * 2)
        : roll < mood + 0.2
          ? 7 + Math.floor(rand() * 2)
          : Math.floor(rand() * 7);
    const group = rating >= 9 ? "promoter" : rating >= 7 ? "passive" : "detractor";
    const comments = COMMENTS[group];
    const created = BASE - daysAgo * DAY - Math.floor(rand() * 86_400) * 1000;
    const partial = i % 20 === 19;
    cs.nps.set(id, {
      _id: id,
      customer: opts.customer,
      surveyId,
      requestId: stableId(opts.customer, "seed-nps-request", i),
      name: NAMES[i % NAMES.length]!,
      phone: `+1555${String(1000000 + i).slice(-7)}`,
      orderId: `#S${10000 + i}`,
      rating,
      comment: comments[Math.floor(rand() * comments.length)]!,
      partial,
      created: iso(created),
      ...(partial ? {} : { sendDate: iso(created + 600_000) }),
      __v: 0,
    });
  }
  store.changed();
  return { customer: opts.customer, nps: cs.nps.size };
}
