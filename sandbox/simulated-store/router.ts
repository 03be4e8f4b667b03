// How the simulated store is extended: a module contributes GraphQL operations (matched by
// operation name, as every document in app/.server/shopify/*documents.ts has one) and bulk roots
// (matched by the first field of a bulk query: `products`, `orders`, ...). The products module is
// built in; an orders module plugs in the same way (see README.md in this folder).

export interface GraphqlError {
  message: string;
  extensions?: { code?: string; [k: string]: unknown };
  path?: (string | number)[];
}

export interface StoreContext {
  shop: string;
  origin: string;
  apiVersion: string;
  seed: number;
  now(): Date;
}

export interface OperationResult {
  data?: unknown;
  errors?: GraphqlError[];
  /** Points actually spent; defaults to the requested cost. */
  actualCost?: number;
}

// The requested cost of an operation is not the handler's to say: the store computes it from the
// document against Shopify's schema (query-cost.ts), as Shopify does.
export interface OperationHandler {
  handle(variables: Record<string, unknown>, ctx: StoreContext): OperationResult | Promise<OperationResult>;
}

/** One top-level object of a bulk result and its child lines (each carrying `__parentId`). */
export interface BulkGroupOut {
  parent: Record<string, unknown>;
  children: Record<string, unknown>[];
}

export interface BulkRoot {
  /** Lines the result will hold (objectCount), computed without building the objects if possible. */
  objectCount(query: string, ctx: StoreContext): number;
  /** Top-level objects the result will hold (rootObjectCount); without it, the groups are counted. */
  rootObjectCount?(query: string, ctx: StoreContext): number;
  /** The result, one group at a time, generated as it is streamed. */
  groups(query: string, ctx: StoreContext): Iterable<BulkGroupOut> | AsyncIterable<BulkGroupOut>;
}

export interface StoreModule {
  name: string;
  operations?: Record<string, OperationHandler>;
  bulkRoots?: Record<string, BulkRoot>;
  /** Operations matched by the document's first field when no operation of its name is known. */
  roots?: Record<string, OperationHandler>;
  /** The consent of a customer this module knows (the store's CustomerConsent read asks each). */
  customerConsent?(customerId: number): import("./consent").SimCustomerConsent | null;
}

export class StoreRouter {
  private readonly operations = new Map<string, OperationHandler>();
  private readonly bulkRoots = new Map<string, BulkRoot>();
  private readonly roots = new Map<string, OperationHandler>();
  readonly consentSources: NonNullable<StoreModule["customerConsent"]>[] = [];

  register(module: StoreModule): void {
    if (module.customerConsent) this.consentSources.push(module.customerConsent.bind(module));
    for (const [name, handler] of Object.entries(module.operations ?? {})) {
      if (this.operations.has(name))
        throw new Error(`simulated store: operation ${name} registered twice (${module.name})`);
      this.operations.set(name, handler);
    }
    for (const [root, source] of Object.entries(module.bulkRoots ?? {})) {
      if (this.bulkRoots.has(root))
        throw new Error(`simulated store: bulk root ${root} registered twice (${module.name})`);
      this.bulkRoots.set(root, source);
    }
    for (const [field, handler] of Object.entries(module.roots ?? {})) {
      if (this.roots.has(field))
        throw new Error(`simulated store: root field ${field} registered twice (${module.name})`);
      this.roots.set(field, handler);
    }
  }

  /** By operation name; else, when the document is given, by its first field. */
  operation(name: string | undefined, document?: string): OperationHandler | undefined {
    const named = name ? this.operations.get(name) : undefined;
    if (named || document === undefined) return named;
    const field = documentRootField(document);
    return field ? this.roots.get(field) : undefined;
  }

  bulkRoot(query: string): { root: string; source: BulkRoot } | undefined {
    const root = bulkRootField(query);
    const source = root ? this.bulkRoots.get(root) : undefined;
    return root && source ? { root, source } : undefined;
  }
}

/** The operation a request names: `operationName` when sent, else the document's first named operation. */
export function requestOperationName(document: string, operationName: unknown): string | undefined {
  if (typeof operationName === "string" && operationName) return operationName;
  return /\b(?:query|mutation)\s+([A-Za-z_][A-Za-z0-9_]*)/.exec(document)?.[1];
}

/** `{ products(query: "...") { ... } }` → "products". */
export function bulkRootField(query: string): string | undefined {
  const body = query.replace(/#[^\n]*/g, "").replace(/^\s*query\b[^{]*/, "");
  return /^\s*\{\s*([A-Za-z_][A-Za-z0-9_]*)/.exec(body)?.[1];
}

/** `mutation M($x: T) { alias: metafieldsSet(...) { ... } }` → "metafieldsSet". */
export function documentRootField(document: string): string | undefined {
  const body = document.replace(/#[^\n]*/g, "");
  const open = body.indexOf("{");
  if (open < 0) return undefined;
  return /^\{\s*(?:[A-Za-z_][A-Za-z0-9_]*\s*:\s*)?([A-Za-z_][A-Za-z0-9_]*)/.exec(body.slice(open))?.[1];
}
