import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { appContext } from "../.server/context.server";
import { plain, whenSigned, askQuestionResponse, questionsPageResponse } from "../.server/storefront";
import { proxyDeps, reviewWriteDeps } from "../.server/web";

// App proxy: GET a page of a product's questions (HTML fragment); POST a shopper's question.
export const loader = ({ request, params }: LoaderFunctionArgs) =>
  questionsPageResponse(request, params.sku ?? "", proxyDeps(appContext()));

export const action = ({ request, params }: ActionFunctionArgs) =>
  request.method === "POST"
    ? askQuestionResponse(request, params.sku ?? "", reviewWriteDeps(appContext()))
    : whenSigned(request, proxyDeps(appContext()).authenticate, () =>
        plain(405, "Method not allowed", { Allow: "GET, POST" }),
      );
