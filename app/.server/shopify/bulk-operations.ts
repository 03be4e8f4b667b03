import { createInterface } from "node:readline";
import { Readable } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { z } from "zod";
import type { AdminGraphql } from "./admin-graphql";
import { defaultSleep } from "./admin-graphql";
import { BULK_OPERATION_RUN_QUERY, BULK_OPERATION_STATUS, LATEST_BULK_QUERY } from "./documents";
import { ShopifyAuthError, ShopifyPermanentError, ShopifyRetryableError, assertNoUserErrors } from "./errors";

// Bulk queries: start one, learn when it is done (the bulk_operations/finish webhook, or polling),
// then stream its JSONL result. A full catalog can be hundreds of MB: the result is read line by
// line and handed out one parent (product, order) at a time with its children, never held whole.

export const BULK_STATUSES = ["CREATED", "RUNNING", "COMPLETED", "CANCELING", "CANCELED", "FAILED", "EXPIRED"] as const;
export type BulkOperationStatus = (typeof BULK_STATUSES)[number];
const TERMINAL: ReadonlySet<string> = new Set(["COMPLETED", "CANCELED", "FAILED", "EXPIRED"]);

// UnsignedInt64 arrives as a string.
const count = z.union([z.string(), z.number()]).transform((v) => Number(v));

export const bulkOperationSchema = z.object({
  id: z.string(),
  status: z.string(),
  errorCode: z
    .string()
    .nullish()
    .transform((v) => v ?? null),
  createdAt: z
    .string()
    .nullish()
    .transform((v) => v ?? null),
  completedAt: z
    .string()
    .nullish()
    .transform((v) => v ?? null),
  objectCount: count.nullish().transform((v) => v ?? 0),
  // Objects at the root of the query only (products, not their variants): a run's total.
  rootObjectCount: count.nullish().transform((v) => v ?? null),
  fileSize: count.nullish().transform((v) => v ?? null),
  url: z
    .string()
    .nullish()
    .transform((v) => v ?? null),
  partialDataUrl: z
    .string()
    .nullish()
    .transform((v) => v ?? null),
});

export type BulkOperationState = z.infer<typeof bulkOperationSchema>;

export function isTerminal(status: string): boolean {
  return TERMINAL.has(status);
}

const runQueryResponse = z.object({
  bulkOperationRunQuery: z
    .object({
      bulkOperation: z.object({ id: z.string(), status: z.string() }).nullish(),
      userErrors: z.array(
        z.object({ field: z.array(z.string()).nullish(), message: z.string(), code: z.string().nullish() }),
      ),
    })
    .nullish(),
});

/**
 * Shopify refuses bulk operations to this app: not enabled in the Partner Dashboard, disabled after
 * 31 days without one, or (public apps, since 2026-11-12) no IP allowlist. Its answer is an access
 * denied error: a top-level ACCESS_DENIED on bulkOperationRunQuery, a userError with that code, or
 * an operation that fails with errorCode ACCESS_DENIED. What to do: read the same data paged.
 */
export class BulkOperationsRefusedError extends ShopifyPermanentError {}

/** An operation's errorCode (or a finish webhook's error_code) that means "bulk refused". */
export function isBulkRefusalCode(code: string | null | undefined): boolean {
  return (code ?? "").toUpperCase() === "ACCESS_DENIED";
}

/**
 * Starts a bulk query and returns the operation's GID. userErrors (e.g. OPERATION_IN_PROGRESS, an
 * invalid query) throw ShopifyUserErrors; Shopify refusing bulk operations throws
 * BulkOperationsRefusedError. `groupObjects` defaults to true: readBulkJsonl needs it.
 */
export async function startBulkQuery(
  gql: AdminGraphql,
  query: string,
  opts: { groupObjects?: boolean } = {},
): Promise<string> {
  let raw: unknown;
  try {
    raw = await gql.query(BULK_OPERATION_RUN_QUERY, { query, groupObjects: opts.groupObjects ?? true });
  } catch (error) {
    if (error instanceof ShopifyAuthError && error.errors?.some((e) => isBulkRefusalCode(e.extensions?.code))) {
      throw new BulkOperationsRefusedError(`bulk operations refused by Shopify: ${error.message}`, {
        shop: gql.shop,
        errors: error.errors,
        cause: error,
      });
    }
    throw error;
  }
  const data = runQueryResponse.parse(raw);
  const payload = data.bulkOperationRunQuery;
  const refusal = payload?.userErrors.find((e) => isBulkRefusalCode(e.code));
  if (refusal)
    throw new BulkOperationsRefusedError(
      `bulk operations refused by Shopify: bulkOperationRunQuery: ${refusal.message}`,
      { shop: gql.shop },
    );
  assertNoUserErrors("bulkOperationRunQuery", gql.shop, payload);
  if (!payload?.bulkOperation) {
    throw new ShopifyPermanentError("bulkOperationRunQuery: no bulk operation returned", { shop: gql.shop });
  }
  return payload.bulkOperation.id;
}

/** The state of one bulk operation: `{ id, status, url, objectCount, rootObjectCount, errorCode, ... }`. */
export async function pollBulkOperation(gql: AdminGraphql, id: string): Promise<BulkOperationState> {
  const data = z.object({ node: z.unknown() }).parse(await gql.query(BULK_OPERATION_STATUS, { id }));
  const parsed = bulkOperationSchema.safeParse(data.node);
  if (!parsed.success) throw new ShopifyPermanentError(`bulk operation ${id} not found`, { shop: gql.shop });
  return parsed.data;
}

/** The app's latest bulk query on the shop, or null. */
export async function currentBulkOperation(gql: AdminGraphql): Promise<BulkOperationState | null> {
  const data = z
    .object({ bulkOperations: z.object({ nodes: z.array(bulkOperationSchema) }) })
    .parse(await gql.query(LATEST_BULK_QUERY));
  return data.bulkOperations.nodes[0] ?? null;
}

/**
 * Polls until the operation reaches a terminal status (COMPLETED, FAILED, CANCELED, EXPIRED) and
 * returns it. Prefer the bulk_operations/finish webhook; this is for the CLI, tests and the demo.
 */
export async function waitForBulkOperation(
  gql: AdminGraphql,
  id: string,
  opts: {
    intervalMs?: number;
    timeoutMs?: number;
    signal?: AbortSignal;
    sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  } = {},
): Promise<BulkOperationState> {
  const { intervalMs = 2_000, timeoutMs = 30 * 60_000, signal, sleep = defaultSleep } = opts;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = await pollBulkOperation(gql, id);
    if (isTerminal(state.status)) return state;
    if (Date.now() + intervalMs > deadline) {
      throw new ShopifyRetryableError(`bulk operation ${id} still ${state.status} after ${timeoutMs} ms`, {
        shop: gql.shop,
      });
    }
    await sleep(intervalMs, signal);
  }
}

/** One parent line of a bulk result and the lines that name it (or one of its children) as parent. */
export interface BulkGroup<P = Record<string, unknown>, C = BulkChild> {
  parent: P;
  children: C[];
}

export type BulkChild = Record<string, unknown> & { __parentId: string };

/** The JSONL is not what we asked for: bad JSON, or a child away from its parent (ungrouped output). */
export class BulkJsonlError extends ShopifyPermanentError {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(`bulk JSONL line ${line}: ${message}`, {});
  }
}

export type BulkSource =
  | string
  | URL
  | NodeJS.ReadableStream
  | WebReadableStream<Uint8Array>
  | globalThis.ReadableStream<Uint8Array>
  | AsyncIterable<string | Uint8Array>
  | null
  | undefined;

async function openSource(
  source: Exclude<BulkSource, null | undefined>,
  fetchImpl: typeof globalThis.fetch,
  signal?: AbortSignal,
): Promise<NodeJS.ReadableStream> {
  if (typeof source === "string" || source instanceof URL) {
    let res: Response;
    try {
      // No access token: the result URL is pre-signed storage, and the token must not travel there.
      res = await fetchImpl(source, { signal });
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new ShopifyRetryableError("bulk result download failed", { cause: error });
    }
    if (!res.ok || !res.body) {
      await res.body?.cancel().catch(() => {});
      if (res.status >= 500 || res.status === 429) {
        throw new ShopifyRetryableError(`bulk result download: HTTP ${res.status}`, { status: res.status });
      }
      // 403/404 here means the signed URL expired (7 days): run the bulk query again.
      throw new ShopifyPermanentError(`bulk result download: HTTP ${res.status} (expired URL?)`, {
        status: res.status,
      });
    }
    return Readable.fromWeb(res.body as WebReadableStream<Uint8Array>);
  }
  if (typeof (source as globalThis.ReadableStream).getReader === "function") {
    return Readable.fromWeb(source as WebReadableStream<Uint8Array>);
  }
  if (typeof (source as NodeJS.ReadableStream).pipe === "function") return source as NodeJS.ReadableStream;
  return Readable.from(source as AsyncIterable<string | Uint8Array>);
}

/**
 * Streams a bulk JSONL result (a URL, fetched without credentials, or any byte/text stream) and
 * yields each parent with its children. Relies on grouped output (children after their parent and
 * before the next parent, grandchildren likewise): a parent is yielded when the next one starts or
 * the input ends. A child that names a parent other than the current one throws BulkJsonlError.
 * Breaking out of the loop closes the download.
 */
export async function* readBulkJsonl<P = Record<string, unknown>, C = BulkChild>(
  source: BulkSource,
  fetchImpl: typeof globalThis.fetch = globalThis.fetch,
  opts: { signal?: AbortSignal } = {},
): AsyncGenerator<BulkGroup<P, C>, void, undefined> {
  if (source == null) return; // A bulk query that matched nothing has no file.
  const input = await openSource(source, fetchImpl, opts.signal);
  const lines = createInterface({ input, crlfDelay: Infinity });
  let current: BulkGroup<P, C> | null = null;
  // Ids inside the current group, so grandchildren (two levels of nesting) find their place.
  let groupIds = new Set<string>();
  let lineNo = 0;
  try {
    for await (const raw of lines) {
      lineNo++;
      const line = raw.trim();
      if (!line) continue;
      let obj: Record<string, unknown>;
      try {
        obj = JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new BulkJsonlError("not JSON", lineNo);
      }
      if (obj === null || typeof obj !== "object" || Array.isArray(obj))
        throw new BulkJsonlError("not an object", lineNo);
      const parentId = obj.__parentId;
      if (typeof parentId !== "string") {
        if (current) yield current;
        current = { parent: obj as P, children: [] };
        groupIds = new Set(typeof obj.id === "string" ? [obj.id] : []);
        continue;
      }
      if (!current || !groupIds.has(parentId)) {
        throw new BulkJsonlError(
          `child of ${parentId} is not under its parent (was the query run with groupObjects: true?)`,
          lineNo,
        );
      }
      current.children.push(obj as C);
      if (typeof obj.id === "string") groupIds.add(obj.id);
    }
    if (current) yield current;
  } finally {
    lines.close();
    const destroy = (input as { destroy?: (e?: Error) => void }).destroy;
    if (typeof destroy === "function") destroy.call(input);
  }
}
