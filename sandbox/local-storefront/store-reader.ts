import pino from "pino";
import {
  createAdminGraphql,
  type AdminGraphql,
  CURRENT_APP_INSTALLATION,
  PRODUCT_BY_HANDLE,
  PRODUCTS_WITH_METAFIELDS,
  SHOP_MONEY_FORMAT,
} from "../../app/.server/shopify";
import { type RawMetafield, readCustomerOrder, readCustomerOrders, type ShopOrder } from "../../app/.server/storefront";

// What Shopify's own renderer knows when it draws a page, read from the simulated store over its
// GraphQL endpoint: products with their metafields (what the back-sync wrote included) and the app
// installation's app-data metafields. The documents are the app's own (metafield-documents.ts).

/**
 * Products a ProductsWithMetafields page asks for: each costs 68 requested points (its 10 variants
 * and 50 metafields), and Shopify refuses a query over 1,000.
 */
export const PRODUCTS_PAGE = 14;

export interface StoreProduct {
  /** Numeric id. */
  id: string;
  handle: string;
  title: string;
  descriptionHtml: string;
  vendor: string;
  /** Decimal string, e.g. "42.00"; null without variants. */
  price: string | null;
  metafields: RawMetafield[];
}

interface ProductNode {
  id: string;
  handle: string;
  title: string;
  descriptionHtml: string;
  vendor: string;
  variants: { nodes: { price: string }[] };
  metafields: { nodes: RawMetafield[] };
}

const toProduct = (n: ProductNode): StoreProduct => ({
  id: n.id.replace(/^gid:\/\/shopify\/Product\//, ""),
  handle: n.handle,
  title: n.title,
  descriptionHtml: n.descriptionHtml,
  vendor: n.vendor,
  price: n.variants.nodes[0]?.price ?? null,
  metafields: n.metafields.nodes,
});

export interface ShopMoney {
  format: string;
  currencyCode: string;
}

export interface StoreReader {
  product(handle: string): Promise<StoreProduct | null>;
  productById(id: string): Promise<StoreProduct | null>;
  products(first: number): Promise<StoreProduct[]>;
  appMetafields(): Promise<RawMetafield[]>;
  /** The shop's money format and currency (Liquid's `shop.money_format`), read once. */
  money(): Promise<ShopMoney>;
  /** A customer's latest orders (the account page's history). */
  customerOrders(customerId: string): Promise<ShopOrder[]>;
  /** One order when it is that customer's (Shopify answers 404 for anyone else's). */
  customerOrder(customerId: string, orderId: string): Promise<ShopOrder | null>;
}

export function createStoreReader(opts: {
  graphqlUrl: string;
  accessToken: string;
  shop: string;
  apiVersion: string;
}): StoreReader {
  const gql: AdminGraphql = createAdminGraphql({
    shop: opts.shop,
    accessToken: opts.accessToken,
    apiVersion: opts.apiVersion,
    endpoint: opts.graphqlUrl,
    logger: pino({ level: "silent" }),
    maxThrottleRetries: 10,
  });
  let money: Promise<ShopMoney> | null = null;
  return {
    money() {
      money ??= gql
        .query<{ shop: { currencyCode: string; currencyFormats: { moneyFormat: string } } }>(SHOP_MONEY_FORMAT, {})
        .then((d) => ({ format: d.shop.currencyFormats.moneyFormat, currencyCode: d.shop.currencyCode }))
        .catch((e: unknown) => {
          money = null; // asked again on the next page
          throw e;
        });
      return money;
    },
    async product(handle) {
      const data = await gql.query<{ productByIdentifier: ProductNode | null }>(PRODUCT_BY_HANDLE, { handle });
      return data.productByIdentifier ? toProduct(data.productByIdentifier) : null;
    },
    async productById(id) {
      const data = await gql.query<{ products: { nodes: ProductNode[] } }>(PRODUCTS_WITH_METAFIELDS, {
        first: 1,
        query: `id:${id}`,
      });
      return data.products.nodes[0] ? toProduct(data.products.nodes[0]) : null;
    },
    async products(first) {
      const out: StoreProduct[] = [];
      let after: string | null = null;
      while (out.length < first) {
        const data: {
          products: { nodes: ProductNode[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };
        } = await gql.query(PRODUCTS_WITH_METAFIELDS, {
          first: Math.min(PRODUCTS_PAGE, first - out.length),
          after,
        });
        out.push(...data.products.nodes.map(toProduct));
        if (!data.products.pageInfo.hasNextPage) break;
        after = data.products.pageInfo.endCursor;
      }
      return out;
    },
    async appMetafields() {
      const data = await gql.query<{ currentAppInstallation: { metafields: { nodes: RawMetafield[] } } | null }>(
        CURRENT_APP_INSTALLATION,
        {},
      );
      return data.currentAppInstallation?.metafields.nodes ?? [];
    },
    customerOrders: async (customerId) => (await readCustomerOrders(gql, customerId)).orders,
    customerOrder: (customerId, orderId) => readCustomerOrder(gql, customerId, orderId),
  };
}
