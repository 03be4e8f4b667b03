import { z } from "zod";
import { graphqlProductNodeSchema, graphqlVariantSchema, type GraphqlProductNode } from "../mapping";
import type { AdminGraphql } from "./admin-graphql";
import { SHOP_PRIMARY_DOMAIN } from "./documents";
import { PRODUCT_BY_ID, PRODUCT_VARIANTS_PAGE } from "./product-documents";
import { ShopifyPermanentError } from "./errors";

// Small reads built on the documents, each validating what comes back.

const primaryDomainResponse = z.object({
  shop: z.object({ primaryDomain: z.object({ url: z.string().min(1) }) }),
});

/** The storefront origin products are linked under, without a trailing slash. */
export async function fetchPrimaryDomain(gql: AdminGraphql): Promise<string> {
  const data = primaryDomainResponse.parse(await gql.query(SHOP_PRIMARY_DOMAIN));
  return data.shop.primaryDomain.url.replace(/\/+$/, "");
}

const pageInfo = z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullish() });
const variantsPage = z.object({ nodes: z.array(graphqlVariantSchema), pageInfo });

const productByIdResponse = z.object({ product: graphqlProductNodeSchema.nullable() });
const variantsPageResponse = z.object({
  product: z.object({ variants: variantsPage }).nullable(),
});

/**
 * One product as the catalog mapper wants it, all variants included (a product may have up to
 * 2,048: pages of 250 follow the first), or null when it no longer exists. `variants` comes back
 * as a flat array; `metafields` is present only when keys are asked for.
 */
export async function fetchProduct(
  gql: AdminGraphql,
  id: string,
  opts: { metafieldKeys?: readonly string[]; signal?: AbortSignal } = {},
): Promise<GraphqlProductNode | null> {
  const metafieldKeys = [...(opts.metafieldKeys ?? [])];
  const first = productByIdResponse.parse(
    await gql.query(
      PRODUCT_BY_ID,
      { id, withMetafields: metafieldKeys.length > 0, metafieldKeys },
      { signal: opts.signal },
    ),
  );
  if (!first.product) return null;
  const firstPage = variantsPage.safeParse(first.product.variants);
  if (!firstPage.success) {
    throw new ShopifyPermanentError(`ProductById ${id}: variants without pageInfo`, { shop: gql.shop });
  }
  const variants = [...firstPage.data.nodes];
  let info = firstPage.data.pageInfo;
  while (info.hasNextPage && info.endCursor) {
    const next = variantsPageResponse.parse(
      await gql.query(PRODUCT_VARIANTS_PAGE, { id, after: info.endCursor }, { signal: opts.signal }),
    );
    if (!next.product) return null; // deleted while we were reading it
    variants.push(...next.product.variants.nodes);
    info = next.product.variants.pageInfo;
  }
  return { ...first.product, variants };
}
