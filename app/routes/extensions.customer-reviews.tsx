import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { reviewsFor } from "../.server/admin";
import { appContext } from "../.server/context.server";
import { authenticate } from "../shopify.server";
import { answerCustomerReviews } from "../.server/web";

// Backend of the customer details block (admin UI extension): one page of the customer's reviews
// for the shop of the admin's ID token. OPTIONS (the preflight) is answered by the library.
const answer = (request: Request) => {
  const ctx = appContext();
  return answerCustomerReviews(request, {
    authenticate: (r) => authenticate.admin(r),
    db: ctx.db,
    log: ctx.log,
    shopIdOf: async (domain) => (await ctx.shops.find(domain))?.id ?? null,
    reviewsFor: (domain) => reviewsFor(ctx, domain),
  });
};
export const loader = ({ request }: LoaderFunctionArgs) => answer(request);
// The browser's preflight (OPTIONS) reaches the action; the library answers it.
export const action = ({ request }: ActionFunctionArgs) => answer(request);
