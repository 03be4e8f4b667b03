// In-memory state, one partition per customer, with optional JSON-file persistence. Product report
// aggregates are maintained here on every review write (the spec says the report without a date
// range is served from "pre-computed aggregates of the full history").
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type {
  AttributeDefinition,
  CustomerSettings,
  CustomerSnapshot,
  ProductAggregate,
  StoredGroup,
  StoredNps,
  StoredOrder,
  StoredProduct,
  StoredQuestion,
  StoredReview,
  StoredStoreReview,
  StoredUpload,
} from "./types";

export function defaultSettings(customer: string): CustomerSettings {
  return {
    storeUrl: `https://${customer}.example`,
    storeName: customer,
    logo: null,
    minStarsHighlightPDP: 4,
    enableStoreReview: true,
    topRated: { skus: [], badgeLabel: "Top rated" },
    forbiddenWords: ["forbiddenword"],
    syndicationStores: {},
  };
}

export function emptyAggregate(): ProductAggregate {
  return {
    reviewCount: 0,
    ratingSum: 0,
    publishedCount: 0,
    publishedRatingSum: 0,
    withPictures: 0,
    withVideo: 0,
    withText: 0,
    publishedWithPictures: 0,
    publishedWithVideo: 0,
    publishedWithText: 0,
  };
}

export function hasText(r: StoredReview): boolean {
  return r.text.trim().length > 0;
}

export function addToAggregate(agg: ProductAggregate, r: StoredReview): void {
  const pictures = r.pictures.length > 0;
  const video = r.video !== undefined;
  const text = hasText(r);
  agg.reviewCount++;
  agg.ratingSum += r.rating;
  if (pictures) agg.withPictures++;
  if (video) agg.withVideo++;
  if (text) agg.withText++;
  if (r.status === "published") {
    agg.publishedCount++;
    agg.publishedRatingSum += r.rating;
    if (pictures) agg.publishedWithPictures++;
    if (video) agg.publishedWithVideo++;
    if (text) agg.publishedWithText++;
  }
}

export class CustomerState {
  settings: CustomerSettings;
  readonly products = new Map<string, StoredProduct>();
  readonly orders = new Map<string, StoredOrder>();
  readonly reviews = new Map<string, StoredReview>();
  readonly questions = new Map<string, StoredQuestion>();
  readonly nps = new Map<string, StoredNps>();
  readonly groups = new Map<string, StoredGroup>();
  readonly storeReviews = new Map<string, StoredStoreReview>();
  readonly attributes = new Map<string, AttributeDefinition>();
  readonly uploads = new Map<string, StoredUpload>();
  readonly aggregates = new Map<string, ProductAggregate>();
  private readonly reviewsBySku = new Map<string, Set<string>>();

  constructor(readonly customer: string) {
    this.settings = defaultSettings(customer);
  }

  /** Insert or replace a review and refresh the aggregate of its SKU. */
  putReview(review: StoredReview): void {
    this.reviews.set(review._id, review);
    let ids = this.reviewsBySku.get(review.sku);
    if (!ids) this.reviewsBySku.set(review.sku, (ids = new Set()));
    ids.add(review._id);
    this.refreshAggregate(review.sku);
  }

  reviewsOf(sku: string): StoredReview[] {
    const ids = this.reviewsBySku.get(sku);
    if (!ids) return [];
    return [...ids].map((id) => this.reviews.get(id)).filter((r): r is StoredReview => r !== undefined);
  }

  refreshAggregate(sku: string): void {
    const agg = emptyAggregate();
    for (const r of this.reviewsOf(sku)) addToAggregate(agg, r);
    if (agg.reviewCount === 0) this.aggregates.delete(sku);
    else this.aggregates.set(sku, agg);
  }

  /** The group a SKU belongs to (a SKU belongs to at most one). */
  groupOf(sku: string): StoredGroup | undefined {
    for (const g of this.groups.values()) if (g.skus.includes(sku)) return g;
    return undefined;
  }

  snapshot(): CustomerSnapshot {
    return structuredClone({
      customer: this.customer,
      settings: this.settings,
      products: [...this.products.values()],
      orders: [...this.orders.values()],
      reviews: [...this.reviews.values()],
      questions: [...this.questions.values()],
      nps: [...this.nps.values()],
      groups: [...this.groups.values()],
      storeReviews: [...this.storeReviews.values()],
      attributes: [...this.attributes.values()],
      uploads: [...this.uploads.values()],
      aggregates: Object.fromEntries(this.aggregates),
    });
  }

  static restore(s: CustomerSnapshot): CustomerState {
    const c = new CustomerState(s.customer);
    c.settings = { ...defaultSettings(s.customer), ...s.settings };
    for (const p of s.products ?? []) c.products.set(p.sku, p);
    for (const o of s.orders ?? []) c.orders.set(o.orderId, o);
    for (const q of s.questions ?? []) c.questions.set(q._id, q);
    for (const n of s.nps ?? []) c.nps.set(n._id, n);
    for (const g of s.groups ?? []) c.groups.set(g._id, g);
    for (const r of s.storeReviews ?? []) c.storeReviews.set(r._id, r);
    for (const a of s.attributes ?? []) c.attributes.set(a._id, a);
    for (const u of s.uploads ?? []) c.uploads.set(u.fileKey, u);
    // Aggregates are derived data: rebuilt rather than trusted from the file.
    for (const r of s.reviews ?? []) c.putReview(r);
    return c;
  }
}

export interface PersistedFile {
  version: 1;
  customers: CustomerSnapshot[];
  auth?: unknown;
}

export class Store {
  private readonly partitions = new Map<string, CustomerState>();
  /** Uploaded bytes live in memory only; the file keeps the upload records. */
  readonly uploadBytes = new Map<string, { bytes: Buffer; contentType: string }>();
  private timer: NodeJS.Timeout | undefined;
  private extra: () => unknown = () => undefined;

  constructor(private readonly dataFile?: string) {}

  /** Loads the data file, if any, and returns the extra section (auth accounts and tokens). */
  load(): unknown {
    if (!this.dataFile) return undefined;
    let text: string;
    try {
      text = readFileSync(this.dataFile, "utf8");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw e;
    }
    const data = JSON.parse(text) as PersistedFile;
    for (const s of data.customers ?? []) this.partitions.set(s.customer, CustomerState.restore(s));
    return data.auth;
  }

  persistExtra(fn: () => unknown): void {
    this.extra = fn;
  }

  customer(name: string): CustomerState {
    let c = this.partitions.get(name);
    if (!c) this.partitions.set(name, (c = new CustomerState(name)));
    return c;
  }

  has(name: string): boolean {
    return this.partitions.has(name);
  }

  customers(): string[] {
    return [...this.partitions.keys()];
  }

  drop(name: string): void {
    this.partitions.delete(name);
  }

  clear(): void {
    this.partitions.clear();
    this.uploadBytes.clear();
  }

  /** Called after each mutation; writes are debounced so a burst of requests costs one write. */
  changed(): void {
    if (!this.dataFile || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, 50);
    this.timer.unref();
  }

  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (!this.dataFile) return;
    const data: PersistedFile = {
      version: 1,
      customers: [...this.partitions.values()].map((c) => c.snapshot()),
      auth: this.extra(),
    };
    mkdirSync(dirname(this.dataFile), { recursive: true });
    // Write then rename so a crash mid-write never leaves a truncated file behind.
    const tmp = `${this.dataFile}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(data));
    renameSync(tmp, this.dataFile);
  }
}
