import { useRevalidator } from "@remix-run/react";
import { useEffect } from "react";

/** Loads the page's data again every `ms` while `active` (a sync under way): the page moves as it runs. */
export function usePollWhile(active: boolean, ms = 1000) {
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle" && document.visibilityState === "visible") revalidator.revalidate();
    }, ms);
    return () => clearInterval(timer);
  }, [active, ms, revalidator]);
}
