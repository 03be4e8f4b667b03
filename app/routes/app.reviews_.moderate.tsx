import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { authenticate } from "../shopify.server";
import { appContext } from "../.server/context.server";
import { moderateReviews, serviceErrorMessage } from "../.server/admin";

// Approve or reject a slice of reviews for the moderation queue's bulk actions: the page sends the
// selection a slice at a time and shows progress between slices. JSON in, one result per review out.

const bodySchema = z.object({ ids: z.array(z.string().min(1).max(200)).min(1).max(50), approved: z.boolean() });

export const action = async ({ request }: ActionFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const parsed = bodySchema.safeParse(await request.json().catch(() => null));
  if (!parsed.success) return Response.json({ error: { key: "error.unknown" } }, { status: 400 });
  try {
    return Response.json(await moderateReviews(appContext(), session.shop, parsed.data.ids, parsed.data.approved));
  } catch (error) {
    return Response.json({ error: serviceErrorMessage(error) }, { status: 502 });
  }
};
