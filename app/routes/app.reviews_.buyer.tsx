import type { LoaderFunctionArgs } from "@remix-run/node";
import { authenticate } from "../shopify.server";
import { appContext } from "../.server/context.server";
import { buyerReviews, serviceErrorMessage } from "../.server/admin";

// The writer's other reviews for the moderation queue's detail panel, read when a row is opened.

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const q = new URL(request.url).searchParams;
  const id = q.get("review");
  if (!id) return Response.json({ error: { key: "error.unknown" } }, { status: 400 });
  try {
    return Response.json(
      await buyerReviews(appContext(), session.shop, { id, userId: q.get("user"), order: q.get("order") }),
    );
  } catch (error) {
    return Response.json({ error: serviceErrorMessage(error) }, { status: 502 });
  }
};
