import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { login } from "../../shopify.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const url = new URL(request.url);
  // Shopify opens the app with ?shop=...: hand over to the embedded app.
  if (url.searchParams.get("shop")) throw redirect(`/app?${url.searchParams.toString()}`);
  return { showForm: Boolean(login) };
};

export default function Landing() {
  const { showForm } = useLoaderData<typeof loader>();
  return (
    <main style={{ fontFamily: "system-ui", maxWidth: 640, margin: "4rem auto", padding: "0 1rem" }}>
      <h1>Product reviews for your store</h1>
      <p>
        Keeps your catalog and orders in the reviews service so buyers are asked for reviews by e-mail, SMS and
        WhatsApp.
      </p>
      {showForm && (
        <Form method="post" action="/auth/login">
          <label>
            <span>Shop domain </span>
            <input type="text" name="shop" placeholder="my-shop-domain.myshopify.com" />
          </label>{" "}
          <button type="submit">Log in</button>
        </Form>
      )}
    </main>
  );
}
