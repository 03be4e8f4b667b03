import type { ActionFunctionArgs } from "@remix-run/node";
import { authenticate } from "../../shopify.server";
import { appContext } from "../context.server";
import { receiveWebhook } from "./ingress.server";

/** The action every `webhooks.*` route exports: one ingress for every topic. */
export const webhookAction = async ({ request }: ActionFunctionArgs) => {
  const { queues, log } = appContext();
  return receiveWebhook(request, { verify: (r) => authenticate.webhook(r), queues, log });
};
