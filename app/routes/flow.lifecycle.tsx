import type { ActionFunctionArgs } from "@remix-run/node";
import { appContext } from "../.server/context.server";
import { answerLifecycleCallback } from "../.server/web";

// Shopify Flow's trigger lifecycle callback (extensions/flow-lifecycle/shopify.extension.toml):
// signed, and recorded per shop and trigger (app/.server/web/lifecycle-callback.ts).
export const action = ({ request }: ActionFunctionArgs) => {
  const { db, log, shops, config } = appContext();
  return answerLifecycleCallback(request, {
    db,
    log,
    shopIdOf: async (domain) => (await shops.find(domain))?.id ?? null,
    app: { apiSecretKey: config.SHOPIFY_API_SECRET },
  });
};
