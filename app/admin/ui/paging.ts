import { useNavigate, useSearchParams } from "@remix-run/react";
import type { Translate } from "../../shared/i18n/translate";

/**
 * Pages of a service list whose page size the service chooses (not shown in its spec): the next
 * page starts after the rows shown; the size seen is kept in the URL for going back.
 */
export function usePaging(path: string, skip: number, shown: number, total: number, t: Translate) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const size = Number(params.get("ps")) || shown || 1;
  const go = (next: number) => {
    const q = new URLSearchParams(params);
    q.set("skip", String(Math.max(0, next)));
    q.set("ps", String(size));
    navigate(`${path}?${q}`);
  };
  return {
    hasPrevious: skip > 0,
    hasNext: skip + shown < total,
    onPrevious: () => go(skip - size),
    onNext: () => go(skip + shown),
    label: t("common.pageOf", { page: Math.floor(skip / size) + 1, pages: Math.max(1, Math.ceil(total / size)) }),
  };
}
