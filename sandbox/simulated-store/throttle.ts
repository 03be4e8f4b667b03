// The store's cost bucket, behaving like Shopify's: a query is refused (THROTTLED) when the bucket
// holds less than its requested cost; otherwise its actual cost is taken, and the bucket refills at
// restoreRate points per second up to maximumAvailable.

export interface BucketConfig {
  maximumAvailable: number;
  restoreRate: number;
}

export class StoreBucket {
  private available: number;
  private at: number;

  constructor(
    readonly config: BucketConfig,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.available = config.maximumAvailable;
    this.at = now();
  }

  private refill(): void {
    const t = this.now();
    this.available = Math.min(
      this.config.maximumAvailable,
      this.available + ((t - this.at) / 1000) * this.config.restoreRate,
    );
    this.at = t;
  }

  /** Whether a query requesting `requested` points may run now. */
  canPay(requested: number): boolean {
    this.refill();
    return this.available >= Math.min(requested, this.config.maximumAvailable);
  }

  /** Takes the actual cost of a query that ran. */
  charge(actual: number): void {
    this.refill();
    this.available = Math.max(0, this.available - actual);
  }

  /** Test control: empty (or fill) the bucket to `points` now. */
  set(points: number): void {
    this.refill();
    this.available = Math.max(0, Math.min(this.config.maximumAvailable, points));
  }

  status(): { maximumAvailable: number; currentlyAvailable: number; restoreRate: number } {
    this.refill();
    return {
      maximumAvailable: this.config.maximumAvailable,
      // Shopify reports whole points.
      currentlyAvailable: Math.floor(this.available),
      restoreRate: this.config.restoreRate,
    };
  }
}
