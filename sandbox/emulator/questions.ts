// Questions: the admin listing and the Client API read/submit endpoints.
//
// Choices where the spec says "not shown" (also in README.md):
// - Admin `order`: `field,direction` with fields created, sku, status; direction 1/-1; default
//   `created,-1`. Page size 50, `limit` accepted (1..500).
// - A submitted question starts in `sent` (the moderation queue; "status right after submission:
//   not shown"), or `filtered` when it contains a forbidden word. It is shown on the storefront
//   once published (with its reply, if any).
// - The client list returns published questions, newest first, with `reply` null when unanswered.
// - Submission answers 200 with the question in its client view; an unknown SKU answers 404.
import { z } from "zod";
import { badRequest, compareValues, json, notFound, parseFieldDirection, parseWith, queryString } from "./http";
import { newId } from "./ids";
import type { Route } from "./router";
import { adminCustomer, clientCustomer, type Ctx, type Services } from "./services";
import { containsForbiddenWord, displayName } from "./client-common";
import { questionProduct } from "./products.view";
import { pageParams } from "./reviews";
import type { QuestionStatus, StoredQuestion } from "./types";

const STATUSES: QuestionStatus[] = ["published", "removed", "filtered", "sent"];

function listQuestions(ctx: Ctx) {
  const cs = adminCustomer(ctx);
  const q = ctx.query;
  const sku = queryString(q, "sku");
  const status = queryString(q, "status") ?? "published";
  if (status !== "all" && !STATUSES.includes(status as QuestionStatus)) {
    throw badRequest(`status must be all or one of ${STATUSES.join(", ")}`);
  }
  const order = parseFieldDirection(queryString(q, "order"), ["created", "sku", "status"], {
    field: "created",
    dir: -1,
  });
  const { skip, limit } = pageParams(q, ctx.services.adminPageSize);
  const found = [...cs.questions.values()].filter(
    (x) => (sku === undefined || x.sku === sku) && (status === "all" || x.status === status),
  );
  const key = order.field as keyof StoredQuestion;
  found.sort((a, b) => order.dir * compareValues(a[key], b[key]) || order.dir * compareValues(a._id, b._id));
  return json(200, {
    results: found.slice(skip, skip + limit).map((x) => {
      const product = cs.products.get(x.sku);
      return {
        _id: x._id,
        status: x.status,
        created: x.created,
        customer: x.customer,
        sku: x.sku,
        name: x.name,
        text: x.text,
        email: x.email,
        __v: x.__v,
        reply: x.reply,
        product: product ? questionProduct(product, cs.aggregates.get(x.sku)) : null,
      };
    }),
    total: found.length,
  });
}

export function clientQuestion(x: StoredQuestion) {
  return { _id: x._id, status: x.status, created: x.created, name: x.name, text: x.text, reply: x.reply };
}

function clientList(ctx: Ctx) {
  const cs = clientCustomer(ctx);
  const sku = ctx.params.sku;
  const found = [...cs.questions.values()]
    .filter((x) => x.sku === sku && x.status === "published")
    .sort((a, b) => compareValues(b.created, a.created) || compareValues(b._id, a._id));
  return json(200, found.map(clientQuestion));
}

const nonEmpty = z.string().refine((s) => s.trim().length > 0, "must be a non-empty string");
const submitSchema = z.object({ userId: nonEmpty, email: nonEmpty, text: nonEmpty, name: z.string().optional() });

function submit(ctx: Ctx) {
  const cs = clientCustomer(ctx);
  const sku = ctx.params.sku;
  const input = parseWith(submitSchema, ctx.body ?? {});
  if (!cs.products.has(sku)) throw notFound(`product ${sku} not found`);
  const { clock } = ctx.services;
  const question: StoredQuestion = {
    _id: newId(clock.now()),
    customer: cs.customer,
    sku,
    userId: input.userId,
    email: input.email,
    name: displayName(cs, input),
    text: input.text.trim(),
    status: containsForbiddenWord(cs, input.text) ? "filtered" : "sent",
    created: clock.iso(),
    reply: null,
    __v: 0,
  };
  cs.questions.set(question._id, question);
  ctx.services.store.changed();
  return json(200, clientQuestion(question));
}

export const questionRoutes: Route<Services>[] = [
  { method: "GET", pattern: "/api/:customer/questions/all", auth: "admin", handler: listQuestions },
  { method: "GET", pattern: "/api/:customer/:sku/questions", auth: "none", cors: true, handler: clientList },
  { method: "POST", pattern: "/api/:customer/:sku/question", auth: "none", cors: true, handler: submit },
];
