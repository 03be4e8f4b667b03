// Stored shapes of the emulator's state. These are the internal records (what
// `GET /__emulator/state` returns); each resource module renders the public shapes of the spec
// from them, so the wire format lives in one place per resource and the store stays plain data.

export interface Specification {
  name: string;
  value: string;
}

export interface StoredProduct {
  _id: string;
  customer: string;
  sku: string;
  name: string;
  categories: string[];
  brand?: string;
  url?: string;
  image?: string;
  description?: string;
  descriptionShort?: string;
  keywords?: string | string[];
  ean?: string;
  gtin?: string;
  mpn?: string;
  reference?: string;
  internalSku?: string;
  externalId?: string;
  status?: string;
  variants: string[];
  specifications: Specification[];
  isKit: boolean;
  created: string;
  modified: string;
  /** Filled by the seed only: the service computes it with AI, the emulator does not. */
  aiSummary?: { processed: string; text: string; topics: Record<string, "positive" | "negative"> };
}

export interface SellerInfo {
  id: string;
  name?: string;
}

export interface ProductData {
  name?: string;
  productName?: string;
  brand?: string;
  brandName?: string;
  mpn?: string;
  ean?: string;
  gtin?: string;
  url?: string;
  image?: string;
  categories?: string[];
  categoryName?: string;
}

/** v1 items carry `sku` (the product SKU); v2 items carry `productId` and optionally the variant `sku`. */
export interface OrderItem {
  productId?: string;
  sku?: string;
  skuName?: string;
  status?: string;
  cancelled?: boolean;
  sellerInfo?: SellerInfo;
  productData?: ProductData;
}

export interface StoredOrder {
  _id: string;
  customer: string;
  orderId: string;
  version: 1 | 2;
  verificationTokenId: string;
  status: string;
  userId?: string;
  name?: string;
  email?: string;
  phone?: string;
  createdDate?: string;
  authorizedDate?: string;
  estimatedDeliveryDate?: string;
  deliveredDate?: string;
  modifiedDate?: string;
  pointOfSale?: string;
  deliveryMethod?: string;
  optOutEmail: boolean;
  optOutSMS: boolean;
  optOutWhatsApp: boolean;
  items: OrderItem[];
  __v: number;
  created: string;
  updated: string;
}

export type ReviewStatus = "published" | "removed" | "filtered" | "pending";

export interface ReviewReply {
  created: string;
  text: string;
  helpful: number;
  unhelpful: number;
}

export interface StoredReview {
  _id: string;
  customer: string;
  sku: string;
  userId?: string;
  email?: string;
  name: string;
  text: string;
  source: string;
  status: ReviewStatus;
  rating: number;
  helpful: number;
  unhelpful: number;
  verified: boolean;
  recommended: boolean;
  moderationTags: string[];
  topics: string[];
  autoModerated: boolean;
  moderatedAt?: string;
  created: string;
  updated: string;
  pictures: { _id: string; fileKey: string }[];
  video?: { fileKey: string; fileName: string; converted: boolean };
  attributes: { _id: string; value: number; response?: string }[];
  reply: ReviewReply | null;
  orderId?: string;
  variantSku?: string;
  variantName?: string;
  sellerInfo?: SellerInfo;
  updateToken: string;
  /** One vote per voter (userId|email): +1 helpful, -1 unhelpful. */
  votes: Record<string, 1 | -1>;
  syndication?: {
    sourceCustomer: string;
    displaySource: string;
    logo: string | null;
    productUrl: string | null;
    originalText: string | null;
  };
  __v: number;
}

export type QuestionStatus = "published" | "removed" | "filtered" | "sent";

export interface StoredQuestion {
  _id: string;
  customer: string;
  sku: string;
  userId?: string;
  email?: string;
  name: string;
  text: string;
  status: QuestionStatus;
  created: string;
  reply: ReviewReply | null;
  __v: number;
}

export interface StoredNps {
  _id: string;
  customer: string;
  surveyId: string;
  requestId: string;
  name: string;
  phone: string;
  orderId: string;
  rating: number;
  comment: string;
  partial: boolean;
  created: string;
  sendDate?: string;
  __v: number;
}

export interface StoredGroup {
  _id: string;
  customer: string;
  name: string;
  skus: string[];
  created: string;
  __v: number;
}

export interface StoredStoreReview {
  _id: string;
  customer: string;
  name: string;
  rating: number;
  text: string;
  created: string;
  status: "published" | "pending";
  sku: string | null;
  helpful: number;
  unhelpful: number;
}

export interface AttributeDefinition {
  _id: string;
  customer: string;
  title: string;
  description: string;
  order: number;
  type: "stars" | "multiple-choice";
  /** null = applies to every product. */
  categories: string[] | null;
  choices: string[];
  scaleMin: number;
  scaleMax: number;
  appliesTo: string | null;
  __v: number;
}

export interface StoredUpload {
  fileKey: string;
  customer: string;
  reviewId: string;
  kind: "picture" | "video";
  mimeType: string;
  fileSize: number;
  expiresAt: string;
  uploaded: boolean;
  uploadedSize?: number;
  attached: boolean;
}

export interface CustomerSettings {
  /** Base for relative product URLs (catalog rule "Absolute, or relative to the store URL"). */
  storeUrl: string;
  storeName: string;
  logo: string | null;
  minStarsHighlightPDP: number;
  enableStoreReview: boolean;
  topRated: { skus: string[]; badgeLabel: string };
  /** Reviews whose text contains one of these words get status `filtered`. */
  forbiddenWords: string[];
  /** Names and logos of syndication partner stores, by customer id. */
  syndicationStores: Record<string, { name: string; logo: string | null }>;
}

/** Aggregates of the full history of one SKU, kept up to date on every review change. */
export interface ProductAggregate {
  reviewCount: number;
  ratingSum: number;
  publishedCount: number;
  publishedRatingSum: number;
  withPictures: number;
  withVideo: number;
  withText: number;
  publishedWithPictures: number;
  publishedWithVideo: number;
  publishedWithText: number;
}

export interface CustomerSnapshot {
  customer: string;
  settings: CustomerSettings;
  products: StoredProduct[];
  orders: StoredOrder[];
  reviews: StoredReview[];
  questions: StoredQuestion[];
  nps: StoredNps[];
  groups: StoredGroup[];
  storeReviews: StoredStoreReview[];
  attributes: AttributeDefinition[];
  uploads: StoredUpload[];
  aggregates: Record<string, ProductAggregate>;
}
