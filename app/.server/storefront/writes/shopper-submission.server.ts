import { PRODUCT_KEY } from "../proxy/path-keys";
import type { FieldError, ShopperFields } from "./shopper-fields";
import { identifyWriter, type Writer } from "./writer-identity";
import {
  json,
  readSignedWrite,
  serviceClient,
  submissionLimited,
  type ReviewWriteDeps,
  type ServiceClient,
} from "./write-request.server";

// The steps a shopper's submission (a review, a question) takes before its own call to the
// service: signature, path, size, replay (readSignedWrite) → the write budgets (429) → its input
// (422) → the honeypot (202 "received", nothing sent) → the service's client (503) → who writes
// (403/422/503). A Response when one of them answers the shopper.

export interface OpenSubmission<I> {
  shop: string;
  customerId: string;
  input: I;
  client: ServiceClient;
  writer: Writer;
}

export async function openSubmission<I extends ShopperFields>(
  request: Request,
  sku: string,
  deps: ReviewWriteDeps,
  spec: {
    what: "review" | "question";
    parse(body: unknown): { ok: true; input: I } | { ok: false; errors: Record<string, FieldError> };
  },
): Promise<OpenSubmission<I> | Response> {
  const write = await readSignedWrite(request, deps, {
    pathOk: PRODUCT_KEY.test(sku),
    badPath: "bad_product",
    maxBytes: deps.settings.bodyMaxBytes,
  });
  if (write instanceof Response) return write;
  const { shop, customerId } = write;
  // One set of budgets for a shopper's writes of any kind.
  const limited = await submissionLimited(request, deps, write);
  if (limited) return limited;
  const parsed = spec.parse(write.body);
  if (!parsed.ok) return json(422, { errors: parsed.errors });
  const { input } = parsed;
  // A filled honeypot gets the answer a person would get, and nothing is sent.
  if (input.trap) {
    deps.log.info({ shop, sku }, `app proxy: ${spec.what} refused by the honeypot`);
    return json(202, { status: "received" });
  }
  const client = await serviceClient(deps, shop);
  if (client instanceof Response) return client;
  const writer = await identifyWriter(deps, { shop, sku, customerId, client, what: spec.what }, input);
  if (writer instanceof Response) return writer;
  // Best effort: the shopper's write goes on whatever Redis said.
  await deps
    .noteActivity(shop)
    .catch((e: Error) => deps.log.warn({ shop, err: e.message }, "shopper's write not noted for the back-sync"));
  return { shop, customerId, input, client, writer };
}
