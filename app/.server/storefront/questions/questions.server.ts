import type { Logger } from "pino";
import { ReviewsError, type ReviewsStorefrontApi } from "../../reviews";
import { ShopNotConnectedError, ShopNotFoundError } from "../../shops/shop.repository";
import { cacheControl, NO_STORE } from "../proxy/cache-control";
import { errorFragment } from "../proxy/error-fragment";
import { clientIp, type LimitRule, type RateLimiter } from "../proxy/rate-limits";
import { proxyCacheKey, type ResponseCache } from "../proxy/response-cache";
import type { StorefrontLocale } from "../proxy/reviews-query";
import { ProxySignatureError, unauthorized, verifyAppProxy, type AppProxyAuthenticate } from "../proxy/verify-proxy.server";
import { firstLimited, json, readBody, retryable, type ReviewWriteDeps } from "../writes/submit-review.server";
import { identifyWriter, serviceUser } from "../writes/writer-identity";
import { parseQuestionInput } from "./question-input";
import { parseQuestionsQuery, publishedQuestions, questionsPage, type QuestionsPageVars } from "./question-page";

// The Q&A block's two calls through the app proxy:
// - `GET <proxy>/products/<sku>/questions?page=&pageSize=&locale=`: a page of published questions
//   with their answers, as HTML from the theme's `questions-page` snippet. The service's whole
//   list is cached (shared by every page and language), each rendered page too.
// - `POST <proxy>/products/<sku>/questions` `{text, orderNumber?, email?}`: a shopper's question,
//   with the identity rules and limits of a review (signature, replay, size, limits, honeypot, no
//   markup). The service failing keeps it for the worker, like a review: nothing is lost.

export interface QuestionsReadDeps {
  authenticate: AppProxyAuthenticate;
  reviewsFor(shop: string): Promise<Pick<ReviewsStorefrontApi, "getQuestions">>;
  renderQuestions(vars: QuestionsPageVars, locale: StorefrontLocale): Promise<string>;
  renderError(locale: StorefrontLocale): Promise<string>;
  cache: ResponseCache;
  limits: RateLimiter;
  log: Logger;
  settings: { redisPrefix: string; cacheMs: number; ipLimit: LimitRule; shopLimit: LimitRule };
}

const SKU = /^[A-Za-z0-9_.:-]{1,100}$/;
const HTML = "text/html; charset=utf-8";

class ShopLimited extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super("shop limit reached");
  }
}

export async function questionsPageResponse(request: Request, sku: string, deps: QuestionsReadDeps): Promise<Response> {
  let shop: string;
  try {
    ({ shop } = await verifyAppProxy(request, deps.authenticate));
  } catch (e) {
    if (e instanceof ProxySignatureError) return unauthorized();
    throw e;
  }
  const plain400 = (message: string) => new Response(`Bad request: ${message}`, { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": NO_STORE } });
  if (!SKU.test(sku)) return plain400("the product key in the path is not valid");
  const parsed = parseQuestionsQuery(new URL(request.url).searchParams);
  if (!parsed.ok) return plain400(parsed.message);
  const { query } = parsed;
  const key = proxyCacheKey(deps.settings.redisPrefix, { shop, route: `products/${sku}/questions`, normalQuery: `page=${query.page}&pageSize=${query.pageSize}&locale=${query.locale}` });
  const listKey = proxyCacheKey(deps.settings.redisPrefix, { shop, route: `products/${sku}/questions-all`, normalQuery: "" });
  try {
    const [ip, cached] = await Promise.all([deps.limits.hit("ip", clientIp(request), deps.settings.ipLimit), deps.cache.get(key)]);
    if (!ip.ok) return failure(deps, query.locale, 429, ip.retryAfterSeconds);
    if (cached !== null) return page(cached, true, deps);
    const { value, hit } = await deps.cache.getOrCompute(key, async () => {
      const { value: list } = await deps.cache.getOrCompute(listKey, async () => {
        const limit = await deps.limits.hit("shop", shop, deps.settings.shopLimit);
        if (!limit.ok) throw new ShopLimited(limit.retryAfterSeconds);
        const client = await deps.reviewsFor(shop);
        return JSON.stringify(publishedQuestions(await client.getQuestions(sku)));
      });
      return deps.renderQuestions(questionsPage(JSON.parse(list) as ReturnType<typeof publishedQuestions>, query), query.locale);
    });
    return page(value, hit, deps);
  } catch (error) {
    if (error instanceof ShopLimited) return failure(deps, query.locale, 429, error.retryAfterSeconds);
    const notConnected = error instanceof ShopNotConnectedError || error instanceof ShopNotFoundError;
    const passing = notConnected || (error instanceof ReviewsError && (error.kind === "retryable" || error.kind === "rate_limited"));
    deps.log[passing ? "warn" : "error"]({ shop, sku, err: error instanceof ReviewsError ? error.toJSON() : (error as Error).message }, "app proxy: questions page not served");
    return failure(deps, query.locale, passing ? 503 : 502);
  }
}

function page(html: string, hit: boolean, deps: QuestionsReadDeps): Response {
  return new Response(html, {
    status: 200,
    headers: {
      "Content-Type": HTML,
      // Published questions are the same for every shopper: nothing here names the customer.
      "Cache-Control": cacheControl({ dependsOnCustomer: false, maxAgeMs: deps.settings.cacheMs }),
      "X-Reviews-Cache": hit ? "hit" : "miss",
    },
  });
}

async function failure(deps: QuestionsReadDeps, locale: StorefrontLocale, status: number, retryAfterSeconds?: number): Promise<Response> {
  const headers: Record<string, string> = { "Content-Type": HTML, "Cache-Control": NO_STORE };
  if (retryAfterSeconds !== undefined) headers["Retry-After"] = String(retryAfterSeconds);
  const body = await deps.renderError(locale).catch(() => errorFragment(locale, status === 429 ? "busy" : "unavailable"));
  return new Response(body, { status, headers });
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
