// Shopify's GraphQL rate limit is a leaky bucket of cost points per app and shop: every answer
// reports `extensions.cost.throttleStatus {maximumAvailable, currentlyAvailable, restoreRate}`.
// We keep our own projection of that bucket per shop, in process, so a worker waits before a call
// the bucket cannot pay instead of spending a round trip on a THROTTLED answer. Several processes
// share one real bucket; they only see each other through the reported status (and THROTTLED).

export interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}

export interface QueryCost {
  requestedQueryCost?: number | null;
  actualQueryCost?: number | null;
  throttleStatus?: ThrottleStatus | null;
}

/** Milliseconds until a bucket in `status` holds `cost` points (0 when it already does). */
export function waitForCost(status: ThrottleStatus, cost: number): number {
  const needed = Math.min(cost, status.maximumAvailable);
  const missing = needed - status.currentlyAvailable;
  if (missing <= 0) return 0;
  if (!(status.restoreRate > 0)) return 1_000;
  return Math.ceil((missing / status.restoreRate) * 1_000);
}

/** One shop's bucket as last reported, refilled at restoreRate, minus what waiting callers reserved. */
export class CostBucket {
  private status: ThrottleStatus | null = null;
  private observedAt = 0;
  // Points promised to callers that are still waiting for their turn; not yet seen by Shopify.
  private reserved = 0;
  private lastRequested: number | null = null;
  private readonly costByDocument = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  /** The projected level now (may be negative while callers wait), or null before any answer. */
  level(): number | null {
    if (!this.status) return null;
    const refilled =
      this.status.currentlyAvailable + (this.status.restoreRate * (this.now() - this.observedAt)) / 1_000;
    return Math.min(this.status.maximumAvailable, refilled) - this.reserved;
  }

  /** The cost to expect for `document`: its last requested cost, else the shop's last cost. */
  expectedCost(document: string): number {
    return this.costByDocument.get(document) ?? this.lastRequested ?? 0;
  }

  /**
   * Reserves the expected cost of `document` and says how long to wait before sending it.
   * Call `release()` when the request is sent (or abandoned).
   */
  reserve(document: string): { waitMs: number; release: () => void } {
    const level = this.level();
    if (level === null || !this.status) return { waitMs: 0, release: () => {} };
    const cost = Math.min(this.expectedCost(document), this.status.maximumAvailable);
    const waitMs = waitForCost({ ...this.status, currentlyAvailable: level }, cost);
    this.reserved += cost;
    let released = false;
    return {
      waitMs,
      release: () => {
        if (released) return;
        released = true;
        this.reserved -= cost;
      },
    };
  }

  /** Records what Shopify reported for a call of `document`. */
  observe(document: string, cost: QueryCost | null | undefined): void {
    if (!cost) return;
    if (typeof cost.requestedQueryCost === "number") {
      this.lastRequested = cost.requestedQueryCost;
      if (this.costByDocument.size > 500) this.costByDocument.clear();
      this.costByDocument.set(document, cost.requestedQueryCost);
    }
    if (cost.throttleStatus) {
      this.status = { ...cost.throttleStatus };
      this.observedAt = this.now();
    }
  }
}

/** Buckets by shop. One per process is the point; tests make their own. */
export class ThrottleRegistry {
  private readonly buckets = new Map<string, CostBucket>();

  constructor(private readonly now: () => number = Date.now) {}

  bucket(shop: string): CostBucket {
    let b = this.buckets.get(shop);
    if (!b) {
      b = new CostBucket(this.now);
      this.buckets.set(shop, b);
    }
    return b;
  }
}

export const processThrottle = new ThrottleRegistry();
