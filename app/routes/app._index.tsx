import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { BlockStack, Card, Layout, Page, Text } from "@shopify/polaris";
import { authenticate } from "../shopify.server";
import { appContext } from "../.server/context.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const shop = await appContext().shops.ensure(session.shop);
  const status = await appContext().shops.status(shop.domain);
  // Only what the page shows: the masked status, never the encrypted or clear secret.
  return {
    domain: status.domain,
    connected: status.connected,
    customerKey: status.customerKey,
    clientId: status.clientId,
    clientSecret: status.clientSecret,
  };
};

export default function Index() {
  const s = useLoaderData<typeof loader>();
  return (
    <Page title="Reviews">
      <Layout>
        <Layout.Section>
          <Card>
            <BlockStack gap="200">
              <Text as="h2" variant="headingMd">
                Connection to the reviews service
              </Text>
              {s.connected ? (
                <Text as="p">
                  Connected as customer <b>{s.customerKey}</b> (client id {s.clientId}, secret {s.clientSecret}).
                </Text>
              ) : (
                <Text as="p">Not connected yet. Enter the API credentials from the service's dashboard (Settings › Integrations › API).</Text>
              )}
            </BlockStack>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
