import type { LoaderFunctionArgs } from "@remix-run/node";
import { authenticate } from "../shopify.server";
import { appContext } from "../.server/context.server";
import { reportCsv, serviceErrorMessage } from "../.server/admin";
import { pickLocale } from "../shared/i18n/locale";

// The product report as CSV, streamed from the service page after page: the Product report page
// fetches it (App Bridge adds the session token) and hands it to the browser as a download.
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const params = new URL(request.url).searchParams;
  try {
    const body = await reportCsv(appContext(), session.shop, params, pickLocale(params.get("locale")));
    const day = new Date().toISOString().slice(0, 10);
    return new Response(body, {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="product-report-${day}.csv"`,
        "Cache-Control": "no-store",
      },
    });
  } catch (error) {
    return Response.json({ error: serviceErrorMessage(error) }, { status: 502 });
  }
};
