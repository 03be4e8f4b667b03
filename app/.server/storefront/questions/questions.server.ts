import { ReviewsError, type ReviewsStorefrontApi } from "../../reviews";
import { listPageResponse, type ListPageDeps } from "../proxy/list-page.server";
import { clientIp } from "../proxy/rate-limits";
import type { StorefrontLocale } from "../proxy/reviews-query";
import { ProxySignatureError, unauthorized, verifyAppProxy } from "../proxy/verify-proxy.server";
import { firstLimited, json, readBody, retryable, type ReviewWriteDeps } from "../writes/submit-review.server";
import { identifyWriter, serviceUser } from "../writes/writer-identity";
import { parseQuestionInput } from "./question-input";
import { parseQuestionsQuery, publishedQuestions, questionsPage, type PageQuestion, type QuestionsPageVars, type QuestionsQuery } from "./question-page";

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

const SKU = /^[A-Za-z0-9_.:-]{1,100}$/;

export function questionsPageResponse(request: Request, sku: string, deps: QuestionsReadDeps): Promise<Response> {
  return listPageResponse<QuestionsQuery>(request, deps, (shop) =>
    !SKU.test(sku)
      ? "the product key in the path is not valid"
      : {
          route: `products/${sku}/questions`,
          parse: parseQuestionsQuery,
          normal: (q) => `page=${q.page}&pageSize=${q.pageSize}&locale=${q.locale}`,
          fetchList: async () => JSON.stringify(publishedQuestions(await (await deps.reviewsFor(shop)).getQuestions(sku))),
          render: (all, q) => deps.renderQuestions(questionsPage(JSON.parse(all) as PageQuestion[], q), q.locale),
        },
  );
}

export async function askQuestionResponse(request: Request, sku: string, deps: ReviewWriteDeps): Promise<Response> {
  let shop: string;
  let customerId: string;
  try {
    ({ shop, loggedInCustomerId: customerId } = await verifyAppProxy(request, deps.authenticate));
  } catch (e) {
    if (e instanceof ProxySignatureError) return unauthorized();
    throw e;
  }
  if (!SKU.test(sku)) return json(400, { error: "bad_product" });
  let raw: string;
  try {
    raw = await readBody(request, deps.settings.bodyMaxBytes);
  } catch (answer) {
    if (answer instanceof Response) return answer;
    throw answer;
  }
  if (!(await deps.replay.firstUse(request, raw))) return json(409, { error: "replayed" });
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return json(400, { error: "not_json" });
  }
  // The same budgets as reviews: a shopper's writes of any kind share them.
  const limited = await firstLimited(deps, [
    ["write-ip", clientIp(request), deps.settings.ipLimit],
    ...(customerId ? [["write-customer", `${shop}:${customerId}`, deps.settings.customerLimit] as const] : []),
    ["write-shop", shop, deps.settings.shopLimit],
  ]);
  if (limited) return json(429, { error: "busy" }, { "Retry-After": String(limited) });
  const parsed = parseQuestionInput(body);
  if (!parsed.ok) return json(422, { errors: parsed.errors });
  const { input } = parsed;
  if (input.trap) {
    deps.log.info({ shop, sku }, "app proxy: question refused by the honeypot");
    return json(202, { status: "received" });
  }

  let client: Awaited<ReturnType<ReviewWriteDeps["reviewsFor"]>>;
  try {
    client = await deps.reviewsFor(shop);
  } catch {
    return json(503, { error: "unavailable" }, { "Retry-After": "30" });
  }
  const writer = await identifyWriter(deps, { shop, sku, customerId, client: async () => client, answer: json }, input);
  if (writer instanceof Response) return writer;
  // Questions take no review link (parseQuestionInput never reads one).
  if (writer.kind === "link") return json(403, { error: "login_required" });
  const question = { ...serviceUser(writer), text: input.text };
  try {
    await client.askQuestion(sku, question);
    return json(201, { status: "sent" });
  } catch (error) {
    const how = retryable(error);
    if (!how.keep) {
      deps.log.warn({ shop, sku, err: error instanceof ReviewsError ? error.toJSON() : (error as Error).message }, "app proxy: question refused by the service");
      return json(422, { error: "refused" });
    }
    try {
      await deps.keepPending({ shop, sku, submission: { question }, outcomeUnknown: how.outcomeUnknown, error: error instanceof ReviewsError ? error.kind : "error" });
    } catch (keepError) {
      deps.log.error({ shop, sku, err: (keepError as Error).message }, "app proxy: question could not be kept for a retry");
      return json(503, { error: "unavailable" }, { "Retry-After": "30" });
    }
    deps.log.info({ shop, sku, err: error instanceof ReviewsError ? error.kind : "error" }, "app proxy: question kept for a retry");
    return json(202, { status: "received" });
  }
}
