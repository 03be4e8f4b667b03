import type { ActionFunctionArgs } from "@remix-run/node";
import { appContext } from "../context.server";
import { receiveWebhook, createWebhookVerifier } from "../webhooks";

let verifier: ReturnType<typeof createWebhookVerifier> | undefined;
let verifierSecret: string | undefined;

/** The action every `webhooks.*` route exports: one ingress for every topic. */
export const webhookAction = async ({ request }: ActionFunctionArgs) => {
  const { queues, log, config } = appContext();
  // Made again only when the context changes secret (tests swap contexts between files).
  if (!verifier || verifierSecret !== config.SHOPIFY_API_SECRET) {
    verifier = createWebhookVerifier({ apiSecretKey: config.SHOPIFY_API_SECRET });
    verifierSecret = config.SHOPIFY_API_SECRET;
  }
  return receiveWebhook(request, { verify: verifier, queues, log });
};
