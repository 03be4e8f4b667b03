import type { AdminGraphql } from "../shopify/admin-graphql";
import { ShopifyUserErrors, type UserError } from "../shopify/errors";
import { STANDARD_METAFIELD_DEFINITION_ENABLE as STANDARD_DEFINITION_ENABLE } from "../shopify/metafield-documents";
import { STANDARD_DEFINITIONS } from "./rating-metafields";

// Switches on Shopify's standard product definitions `reviews.rating` and `reviews.rating_count`, so
// that themes, search and filters know what the values mean. Idempotent: a definition already on
// answers TAKEN, which counts as done.

const ALREADY_ON = new Set(["TAKEN", "UNSTRUCTURED_ALREADY_EXISTS"]);

export async function enableRatingDefinitions(gql: AdminGraphql): Promise<{ enabled: string[]; alreadyOn: string[] }> {
  const enabled: string[] = [];
  const alreadyOn: string[] = [];
  for (const d of STANDARD_DEFINITIONS) {
    const data = await gql.query<{
      standardMetafieldDefinitionEnable: { createdDefinition: { id: string } | null; userErrors: UserError[] } | null;
    }>(STANDARD_DEFINITION_ENABLE, { ownerType: "PRODUCT", namespace: d.namespace, key: d.key });
    const errors = data.standardMetafieldDefinitionEnable?.userErrors ?? [];
    const name = `${d.namespace}.${d.key}`;
    if (errors.length === 0) enabled.push(name);
    else if (errors.every((e) => e.code && ALREADY_ON.has(e.code))) alreadyOn.push(name);
    else throw new ShopifyUserErrors("standardMetafieldDefinitionEnable", gql.shop, errors);
  }
  return { enabled, alreadyOn };
}
