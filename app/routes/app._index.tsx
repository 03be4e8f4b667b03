import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { authenticate } from "../shopify.server";
import { appContext } from "../.server/context.server";
import {
  confirmStep,
  dismissOnboarding,
  onboardingState,
  saveCredentials,
  type CredentialsResult,
} from "../.server/admin";
import { AdminPage } from "../admin/ui/page";
import { usePollWhile } from "../admin/ui/poll";
import { useI18n } from "../admin/i18n/context";
import { HomeFigures } from "../admin/home-figures";
import { CredentialsForm } from "../admin/credentials-form";
import { SetupGuide, type SetupGuideAction } from "../admin/setup-guide";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const state = await onboardingState(appContext(), session.shop, process.env.SHOPIFY_API_KEY || "");
  return {
    // Kept flat for the page and for the tenant isolation test; never the secret, only its mask.
    domain: state.domain,
    connected: state.connection.connected,
    customerKey: state.connection.customerKey,
    clientId: state.connection.clientId,
    clientSecret: state.connection.clientSecretMask,
    connection: state.connection,
    steps: state.steps,
    dismissed: state.dismissed,
  };
};

export type HomeAction = CredentialsResult | SetupGuideAction;

export const action = async ({ request }: ActionFunctionArgs): Promise<HomeAction> => {
  const { session } = await authenticate.admin(request);
  const form = await request.formData();
  const intent = form.get("intent");
  const ctx = appContext();
  if (intent === "credentials") return saveCredentials(ctx, session.shop, form);
  if (intent === "confirm-policy" || intent === "confirm-theme") {
    const step = intent === "confirm-policy" ? "policy" : "theme";
    await confirmStep(ctx, session.shop, step);
    return { ok: true, confirmed: step };
  }
  if (intent === "dismiss" || intent === "restore") {
    await dismissOnboarding(ctx, session.shop, intent === "dismiss");
    return { ok: true, dismissed: intent === "dismiss" };
  }
  return { ok: false, invalid: true };
};
export default function Home() {
  const data = useLoaderData<typeof loader>();
  const { t } = useI18n();
  const { catalog, orders } = data.steps;
  // A sync is under way, or about to start after connecting: follow it.
  usePollWhile(Boolean(catalog.running || orders.running || (data.connected && (!catalog.done || !orders.done))), 1000);
  return (
    <AdminPage title={t("home.title")}>
      <SetupGuide steps={data.steps} dismissed={data.dismissed} />
      <HomeFigures version={`${data.connected}:${catalog.done}:${orders.done}`} />
      <CredentialsForm connection={data.connection} />
    </AdminPage>
  );
}
