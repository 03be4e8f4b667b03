import { monthOf, type MonthKey } from "./months";

// Net promoter score: answers 0 to 10; promoters 9–10, passives 7–8, detractors 0–6 (the groups of
// the service's List survey responses); the score is the share of promoters less the share of
// detractors, in points from -100 to 100.

export interface NpsGroups {
  promoters: number;
  neutral: number;
  detractors: number;
}

export interface NpsAnswer {
  rating: number | null | undefined;
  created: string | null | undefined;
}

const isScore = (n: unknown): n is number => typeof n === "number" && Number.isInteger(n) && n >= 0 && n <= 10;

/** How many answers gave each score, 0 to 10 (answers without a score left out). */
export function histogramOf(ratings: Iterable<number | null | undefined>): number[] {
  const histogram = Array.from({ length: 11 }, () => 0);
  for (const r of ratings) if (isScore(r)) histogram[r]!++;
  return histogram;
}

export function groupsOf(histogram: number[]): NpsGroups {
  const sum = (from: number, to: number) => histogram.slice(from, to + 1).reduce((a, b) => a + b, 0);
  return { promoters: sum(9, 10), neutral: sum(7, 8), detractors: sum(0, 6) };
}

/** The score, rounded to a whole point; null without answers. */
export function npsOf(g: NpsGroups): number | null {
  const answered = g.promoters + g.neutral + g.detractors;
  if (!answered) return null;
  // `|| 0`: never a "-0" on the page.
  return Math.round(((g.promoters - g.detractors) / answered) * 100) || 0;
}

export interface NpsMonth {
  month: MonthKey;
  answers: number;
  nps: number | null;
}

/** The score of each month's answers, for the months asked (a month without answers: null). */
export function npsByMonth(answers: Iterable<NpsAnswer>, months: MonthKey[]): NpsMonth[] {
  const byMonth = new Map<MonthKey, number[]>(months.map((m) => [m, []]));
  for (const a of answers) {
    const month = monthOf(a.created);
    if (month && isScore(a.rating)) byMonth.get(month)?.push(a.rating);
  }
  return months.map((month) => {
    const ratings = byMonth.get(month)!;
    return { month, answers: ratings.length, nps: npsOf(groupsOf(histogramOf(ratings))) };
  });
}
