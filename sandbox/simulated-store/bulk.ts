import type { BulkGroupOut, BulkRoot, StoreContext, StoreModule, StoreRouter } from "./router";

// Bulk operations as Shopify runs them: bulkOperationRunQuery creates an operation (CREATED, then
// RUNNING), which completes after `durationMs` with a JSONL file at {origin}/bulk/{n}.jsonl. The
// file is generated while it is streamed. With groupObjects: true children follow their parent;
// with false they come after a batch of parents, as Shopify's ungrouped output may.

export interface BulkOperationRecord {
  n: number;
  id: string;
  status: "CREATED" | "RUNNING" | "COMPLETED" | "FAILED" | "CANCELED";
  errorCode: string | null;
  query: string;
  root: string;
  groupObjects: boolean;
  createdAt: string;
  completedAt: string | null;
  objectCount: number;
  /**
   * Top-level objects (products, orders) of the result. Shopify's counts run as the file is made; these are set at
   * completion.
   */
  rootObjectCount: number;
  url: string | null;
}

const UNGROUPED_BATCH = 10;

export class BulkOperations {
  private readonly ops = new Map<number, BulkOperationRecord>();
  private counter = 0;
  private failNext: string | null = null;
  private refusal: "error" | "userError" | null = null;
  /** Each running operation's timer and its completion, so that a drill can end them early. */
  private readonly running = new Map<NodeJS.Timeout, () => Promise<void>>();

  constructor(
    private readonly router: StoreRouter,
    private readonly ctx: StoreContext,
    private readonly durationMs: number,
    private readonly onFinish: (op: BulkOperationRecord) => void,
  ) {}

  failNextOperation(errorCode: string): void {
    this.failNext = errorCode;
  }

  /** Bulk operations not enabled for the app (or disabled after 31 days): how Shopify says so. */
  refuse(as: "error" | "userError" | null): void {
    this.refusal = as;
  }

  get(n: number): BulkOperationRecord | undefined {
    return this.ops.get(n);
  }

  all(): BulkOperationRecord[] {
    return [...this.ops.values()];
  }

  private byGid(gid: unknown): BulkOperationRecord | undefined {
    if (typeof gid !== "string") return undefined;
    const m = /^gid:\/\/shopify\/BulkOperation\/(\d+)$/.exec(gid);
    return m ? this.ops.get(Number(m[1])) : undefined;
  }

  private start(query: string, groupObjects: boolean) {
    const found = this.router.bulkRoot(query);
    if (!found) {
      return {
        bulkOperation: null,
        userErrors: [
          {
            field: ["query"],
            message: "Invalid bulk query: no connection the store knows at the top level",
            code: "INVALID",
          },
        ],
      };
    }
    const n = ++this.counter + 4_512_000;
    const op: BulkOperationRecord = {
      n,
      id: `gid://shopify/BulkOperation/${n}`,
      status: "CREATED",
      errorCode: null,
      query,
      root: found.root,
      groupObjects,
      createdAt: this.ctx.now().toISOString(),
      completedAt: null,
      objectCount: 0,
      rootObjectCount: 0,
      url: null,
    };
    this.ops.set(n, op);
    const failWith = this.failNext;
    this.failNext = null;
    // Shopify picks the operation up soon after; "RUNNING" is what a first poll usually sees.
    queueMicrotask(() => {
      if (op.status === "CREATED") op.status = "RUNNING";
    });
    const complete = async () => {
      if (op.status !== "RUNNING" && op.status !== "CREATED") return;
      if (!failWith) {
        // Counted before the operation shows as done, so that a poll of COMPLETED sees both counts.
        const roots = await this.rootObjectCount(found.source, query);
        if (op.status !== "RUNNING" && op.status !== "CREATED") return; // cancelled meanwhile
        op.objectCount = found.source.objectCount(query, this.ctx);
        op.rootObjectCount = roots;
      }
      op.completedAt = this.ctx.now().toISOString();
      if (failWith) {
        op.status = "FAILED";
        op.errorCode = failWith;
      } else {
        op.status = "COMPLETED";
        // Shopify gives no file when nothing matched.
        op.url = op.objectCount > 0 ? `${this.ctx.origin}/bulk/${n}.jsonl` : null;
      }
      this.onFinish(op);
    };
    const timer = setTimeout(() => {
      this.running.delete(timer);
      void complete();
    }, this.durationMs);
    timer.unref();
    this.running.set(timer, complete);
    return { bulkOperation: { id: op.id, status: op.status, createdAt: op.createdAt }, userErrors: [] };
  }

  /** The root's own count when it has one, else its groups counted (small test roots). */
  private async rootObjectCount(source: BulkRoot, query: string): Promise<number> {
    if (source.rootObjectCount) return source.rootObjectCount(query, this.ctx);
    let n = 0;
    for await (const _group of source.groups(query, this.ctx)) n++;
    return n;
  }

  private out(op: BulkOperationRecord | undefined) {
    if (!op) return null;
    return {
      __typename: "BulkOperation",
      id: op.id,
      status: op.status,
      errorCode: op.errorCode,
      createdAt: op.createdAt,
      completedAt: op.completedAt,
      // UnsignedInt64 values are strings in Shopify's answers.
      objectCount: String(op.objectCount),
      rootObjectCount: String(op.rootObjectCount),
      fileSize: null,
      url: op.url,
      partialDataUrl: null,
      query: op.query,
      type: "QUERY",
    };
  }

  /** The JSONL lines of a completed operation, made as they are read. */
  async *lines(n: number): AsyncGenerator<string> {
    const op = this.ops.get(n);
    const found = op ? this.router.bulkRoot(op.query) : undefined;
    if (!op || !found || op.status !== "COMPLETED") return;
    const line = (o: Record<string, unknown>) => `${JSON.stringify(o)}\n`;
    let held: BulkGroupOut[] = [];
    const flushUngrouped = function* () {
      for (const g of held) yield line(g.parent);
      for (const g of held) for (const c of g.children) yield line(c);
      held = [];
    };
    for await (const group of found.source.groups(op.query, this.ctx)) {
      if (op.groupObjects) {
        // One chunk per group keeps writes few without holding more than a product in memory.
        yield [line(group.parent), ...group.children.map(line)].join("");
      } else {
        held.push(group);
        if (held.length >= UNGROUPED_BATCH) yield* flushUngrouped();
      }
    }
    yield* flushUngrouped();
  }

  module(): StoreModule {
    return {
      name: "bulk",
      operations: {
        BulkOperationRunQuery: {
          handle: (v) => {
            const message =
              "Access denied for bulkOperationRunQuery field. Bulk queries are not enabled for this app: enable them in the Partner Dashboard (API access requests).";
            if (this.refusal === "error") {
              return {
                data: { bulkOperationRunQuery: null },
                errors: [
                  {
                    message,
                    path: ["bulkOperationRunQuery"],
                    extensions: { code: "ACCESS_DENIED", documentation: "https://shopify.dev/api/usage/access-scopes" },
                  },
                ],
              };
            }
            if (this.refusal === "userError") {
              return {
                data: {
                  bulkOperationRunQuery: {
                    bulkOperation: null,
                    userErrors: [{ field: null, message, code: "ACCESS_DENIED" }],
                  },
                },
              };
            }
            return {
              data: {
                bulkOperationRunQuery: this.start(
                  String(v.query ?? ""),
                  v.groupObjects === undefined ? false : Boolean(v.groupObjects),
                ),
              },
            };
          },
        },
        BulkOperationStatus: {
          handle: (v) => ({ data: { node: this.out(this.byGid(v.id)) } }),
        },
        // bulkOperations(first: 1, query: "operation_type:query"), newest first: every operation here is a query.
        LatestBulkQuery: {
          handle: () => {
            const latest = this.out(this.ops.get(this.counter + 4_512_000));
            return { data: { bulkOperations: { nodes: latest ? [latest] : [] } } };
          },
        },
        BulkOperationCancel: {
          handle: (v) => {
            const op = this.byGid(v.id);
            if (!op)
              return {
                data: {
                  bulkOperationCancel: {
                    bulkOperation: null,
                    userErrors: [{ field: ["id"], message: "Bulk operation does not exist" }],
                  },
                },
              };
            if (op.status === "CREATED" || op.status === "RUNNING") {
              op.status = "CANCELED";
              op.completedAt = this.ctx.now().toISOString();
              this.onFinish(op);
            }
            return {
              data: { bulkOperationCancel: { bulkOperation: { id: op.id, status: op.status }, userErrors: [] } },
            };
          },
        },
      },
    };
  }

  /**
   * Completes every running operation now, as if its time were up: Shopify's operations take as
   * long as they take, and a drill that needs one running only while something else happens ends it
   * then instead of sizing its duration for the slowest machine.
   */
  async finishRunning(): Promise<void> {
    const pending = [...this.running];
    this.running.clear();
    for (const [timer] of pending) clearTimeout(timer);
    await Promise.all(pending.map(([, complete]) => complete()));
  }

  close(): void {
    for (const t of this.running.keys()) clearTimeout(t);
    this.running.clear();
  }
}
