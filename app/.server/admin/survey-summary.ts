import type { ReviewsClient } from "../reviews";
import {
  groupsOf,
  histogramOf,
  npsByMonth,
  npsOf,
  type NpsAnswer,
  type NpsGroups,
  type NpsMonth,
} from "../../shared/stats/nps";
import { monthOf, monthsEnding } from "../../shared/stats/months";

// The survey's score over every answer, not the page shown: the service documents no aggregate, so
// the answers are read page after page (newest first), bounded, and summed here. Past the bound the
// score and the groups still cover every answer (the service's `type` filters count them); the
// histogram and the months then cover the newest answers read, and the page says so.

/** At most this many answers are read (and this many pages, whatever the service's page size). */
export const SURVEY_READ_LIMIT = 5000;
const PAGE_LIMIT = 100;
/** Months of the score over time, ending with the month of the newest answer. */
export const SURVEY_MONTHS = 12;

export interface SurveySummary {
  /** Answers the service holds. */
  total: number;
  /** Answers read for the histogram and the months (all of them unless the bound was reached). */
  read: number;
  histogram: number[];
  groups: NpsGroups;
  nps: number | null;
  months: NpsMonth[];
}

export async function surveySummary(client: ReviewsClient): Promise<SurveySummary> {
  const answers: NpsAnswer[] = [];
  let total = 0;
  for (let skip = 0, pages = 0; pages < PAGE_LIMIT && answers.length < SURVEY_READ_LIMIT; pages++) {
    const page = await client.admin.listNpsResponses({ type: "all", sort: "created,-1", skip });
    total = page.total;
    for (const r of page.results) answers.push({ rating: r.rating, created: r.created });
    // The page size is not documented: the next page starts after what this one held.
    skip += page.results.length;
    if (!page.results.length || skip >= total) break;
  }
  const histogram = histogramOf(answers.map((a) => a.rating));
  let groups = groupsOf(histogram);
  if (answers.length < total) {
    const [promoters, neutral, detractors] = await Promise.all(
      (["promoters", "neutral", "detractors"] as const).map(
        async (type) => (await client.admin.listNpsResponses({ type })).total,
      ),
    );
    groups = { promoters: promoters!, neutral: neutral!, detractors: detractors! };
  }
  // The newest by date, not by position: the order asked for is documented, but costs nothing to check.
  const newest = answers
    .map((a) => monthOf(a.created))
    .reduce<string | null>((a, m) => (m && (!a || m > a) ? m : a), null);
  return {
    total,
    read: answers.length,
    histogram,
    groups,
    nps: npsOf(groups),
    months: newest ? npsByMonth(answers, monthsEnding(newest, SURVEY_MONTHS)) : [],
  };
}
