import { PRODUCT_KEY } from "../proxy/path-keys";
import { type ReviewsStorefrontApi, ReviewsPermanentError } from "../../reviews";
import { listPageResponse, type ListPageDeps } from "../proxy/list-page.server";
import type { StorefrontLocale } from "../proxy/reviews-query";
import { openSubmission } from "../writes/shopper-submission.server";
import { json, keptOrRefused, type ReviewWriteDeps } from "../writes/write-request.server";
import { serviceUser } from "../writes/writer-identity";
import { parseQuestionInput } from "./question-input";
import {
  parseQuestionsQuery,
  publishedQuestions,
  questionsPage,
  type PageQuestion,
  type QuestionsPageVars,
  type QuestionsQuery,
} from "./question-page";

// The Q&A block's two calls through the app proxy:
// - `GET <proxy>/products/<sku>/questions?page=&pageSize=&locale=`: a page of published questions
//   with their answers, as HTML from the theme's `questions-page` snippet (list-page.server.ts:
//   the service's whole list cached, shared by every page and language, each rendered page too).
// - `POST <proxy>/products/<sku>/questions` `{text, orderNumber?, email?}`: a shopper's question,
//   with the identity rules and limits of a review (signature, replay, size, limits, honeypot, no
//   markup). The service failing keeps it for the worker, like a review: nothing is lost.

export interface QuestionsReadDeps extends ListPageDeps {
  reviewsFor(shop: string): Promise<Pick<ReviewsStorefrontApi, "getQuestions">>;
  renderQuestions(vars: QuestionsPageVars, locale: StorefrontLocale): Promise<string>;
}

export function questionsPageResponse(request: Request, sku: string, deps: QuestionsReadDeps): Promise<Response> {
  if (!PRODUCT_KEY.test(sku)) return listPageResponse(request, deps, "the product key in the path is not valid");
  return listPageResponse<QuestionsQuery>(request, deps, {
    parse: parseQuestionsQuery,
    list: () => `products/${sku}/questions`,
    normal: (q) => `page=${q.page}&pageSize=${q.pageSize}&locale=${q.locale}`,
    fetchList: async (shop) =>
      JSON.stringify(publishedQuestions(await (await deps.reviewsFor(shop)).getQuestions(sku))),
    render: (all, q) => deps.renderQuestions(questionsPage(JSON.parse(all) as PageQuestion[], q), q.locale),
  });
}

export async function askQuestionResponse(request: Request, sku: string, deps: ReviewWriteDeps): Promise<Response> {
  const open = await openSubmission(request, sku, deps, { what: "question", parse: parseQuestionInput });
  if (open instanceof Response) return open;
  const { shop, input, client, writer } = open;
  // Questions take no review link (parseQuestionInput never reads one).
  if (writer.kind === "link") return json(403, { error: "login_required" });
  // A guest without an order is shown by the name they give: it is asked with the e-mail.
  if (writer.kind === "guest" && !writer.name) return json(422, { errors: { name: "required" } });
  const documented = { ...serviceUser(writer), text: input.text };
  // A guest's name is not a documented field: sent for a service that shows it, and the question
  // goes again without it when the service refuses the body.
  const question = writer.kind === "guest" && writer.name ? { ...documented, name: writer.name } : documented;
  try {
    await client.askQuestion(sku, question).catch((error: unknown) => {
      if (question === documented || !(error instanceof ReviewsPermanentError && error.reason === "bad_request"))
        throw error;
      return client.askQuestion(sku, documented);
    });
    return json(201, { status: "sent" });
  } catch (error) {
    return keptOrRefused(deps, { shop, sku, what: "question", submission: { question } }, error);
  }
}
