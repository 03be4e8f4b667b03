import type { Translate } from "../../shared/i18n/translate";
import { usePaging } from "./paging";

// What a list page (reviews, questions, surveys, product report, product groups) shows of its
// loader's answer: the page of rows, their total and offset when the service answered, nothing
// when the shop is not connected, the service's error when it failed; and the paging between
// pages. One reading of the answer for every list route.

type RowOf<D> = D extends { rows: readonly (infer R)[] } ? R : never;
type ErrorOf<D> = D extends { error: infer E } ? E : never;

export interface ListView<Row, Error> {
  rows: Row[];
  total: number;
  skip: number;
  error: Error | null;
}

/** The rows, total, offset and error of a list loader's answer, whichever of its shapes it has. */
export function listView<D extends object>(data: D): ListView<RowOf<D>, ErrorOf<D>> {
  const answer = data as { rows?: unknown; total?: unknown; skip?: unknown; error?: unknown };
  return {
    rows: Array.isArray(answer.rows) ? (answer.rows as RowOf<D>[]) : [],
    total: typeof answer.total === "number" ? answer.total : 0,
    skip: typeof answer.skip === "number" ? answer.skip : 0,
    error: (answer.error ?? null) as ErrorOf<D> | null,
  };
}

/** `listView` of the loader's answer and the paging of the list at `path`. */
export function useListPage<D extends object>(path: string, data: D, t: Translate) {
  const view = listView(data);
  const paging = usePaging(path, view.skip, view.rows.length, view.total, t);
  return { ...view, paging };
}
