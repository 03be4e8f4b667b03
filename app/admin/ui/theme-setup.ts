import { useAppBridge } from "@shopify/app-bridge-react";
import { useEffect, useState } from "react";
import { themeSetupFromExtensions, type ThemeSetup } from "../../shared/theme-blocks";

// Whether our theme blocks and embed are on, as App Bridge tells the embedded app
// (`shopify.app.extensions()`). "unknown" when this App Bridge has no such call, the call fails,
// answers something else, or does not answer in time: the page then asks the merchant instead.

export type ThemeReading = { state: "pending" } | { state: "read"; setup: ThemeSetup } | { state: "unknown" };

const ANSWER_WITHIN_MS = 10_000;

type AppApi = { extensions?: () => Promise<unknown> };

export function useThemeSetup(): ThemeReading {
  const shopify = useAppBridge();
  const [reading, setReading] = useState<ThemeReading>({ state: "pending" });
  useEffect(() => {
    let live = true;
    const settle = (next: ThemeReading) => {
      if (live) setReading((now) => (now.state === "pending" ? next : now));
    };
    const unanswered = setTimeout(() => settle({ state: "unknown" }), ANSWER_WITHIN_MS);
    try {
      const app = (shopify as unknown as { app?: AppApi }).app;
      if (typeof app?.extensions !== "function") settle({ state: "unknown" });
      else
        app.extensions().then(
          (answer) => {
            const setup = themeSetupFromExtensions(answer);
            settle(setup ? { state: "read", setup } : { state: "unknown" });
          },
          () => settle({ state: "unknown" }),
        );
    } catch {
      settle({ state: "unknown" });
    }
    return () => {
      live = false;
      clearTimeout(unanswered);
    };
  }, [shopify]);
  return reading;
}
