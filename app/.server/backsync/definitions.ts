import {
  type AdminGraphql,
  ShopifyUserErrors,
  type UserError,
  METAFIELD_DEFINITION_CREATE,
  STANDARD_METAFIELD_DEFINITION_ENABLE as STANDARD_DEFINITION_ENABLE,
} from "../shopify";
import { RATING_VALUE, STANDARD_DEFINITIONS } from "./rating-metafields";

// The product definitions the back-sync writes under, made once per shop (idempotent at Shopify as
// well: a definition that exists answers TAKEN, which counts as done):
// - Shopify's standard `reviews.rating` and `reviews.rating_count`, so that themes, search and the
//   Shop app know what the values mean;
// - the app-owned decimal copy of the average (`$app:reviews.rating_value`), readable on the
//   storefront, which Search & Discovery offers as a "rating" filter and automated collections as
//   a condition ("rated 4 and up"). A shop at Shopify's limit of definitions used as collection
//   conditions or admin filters gets the definition without that capability: the filter is what
//   matters.

const ALREADY_ON = new Set(["TAKEN", "UNSTRUCTURED_ALREADY_EXISTS"]);
/** When the set of definitions last grew: a shop whose definitions were made before gets the new ones. */
export const DEFINITIONS_CHANGED_AT = new Date("2026-11-27T00:00:00Z");

const LIMITS = {
  OWNER_TYPE_LIMIT_EXCEEDED_FOR_AUTOMATED_COLLECTIONS: "smartCollectionCondition",
  OWNER_TYPE_LIMIT_EXCEEDED_FOR_USE_AS_ADMIN_FILTERS: "adminFilterable",
} as const;

/** The app-owned definition's input, with the capabilities still wanted. */
export function ratingValueDefinition(capabilities: readonly ("smartCollectionCondition" | "adminFilterable")[]) {
  return {
    name: "Rating (for filters)",
    description: "Average rating of the product's published reviews, 1.0 to 5.0; written by the reviews app.",
    namespace: RATING_VALUE.namespace,
    key: RATING_VALUE.key,
    type: RATING_VALUE.type,
    ownerType: "PRODUCT",
    validations: [
      { name: "min", value: "1.0" },
      { name: "max", value: "5.0" },
    ],
    access: { storefront: "PUBLIC_READ" },
    capabilities: Object.fromEntries(capabilities.map((c) => [c, { enabled: true }])),
  };
}

async function enableStandard(gql: AdminGraphql, d: { namespace: string; key: string }): Promise<UserError[]> {
  const data = await gql.query<{
    standardMetafieldDefinitionEnable: { createdDefinition: { id: string } | null; userErrors: UserError[] } | null;
  }>(STANDARD_DEFINITION_ENABLE, { ownerType: "PRODUCT", namespace: d.namespace, key: d.key });
  return data.standardMetafieldDefinitionEnable?.userErrors ?? [];
}

async function createRatingValue(gql: AdminGraphql): Promise<UserError[]> {
  let capabilities: ("smartCollectionCondition" | "adminFilterable")[] = [
    "smartCollectionCondition",
    "adminFilterable",
  ];
  for (;;) {
    const data = await gql.query<{
      metafieldDefinitionCreate: { createdDefinition: { id: string } | null; userErrors: UserError[] } | null;
    }>(METAFIELD_DEFINITION_CREATE, { definition: ratingValueDefinition(capabilities) });
    const errors = data.metafieldDefinitionCreate?.userErrors ?? [];
    const dropped = errors.map((e) => LIMITS[e.code as keyof typeof LIMITS]).filter(Boolean);
    const kept = capabilities.filter((c) => !dropped.includes(c));
    // Only a limit of a capability still asked for is worth another call: anything else is the answer.
    if (dropped.length !== errors.length || kept.length === capabilities.length) return errors;
    capabilities = kept;
  }
}

export async function enableRatingDefinitions(gql: AdminGraphql): Promise<{ enabled: string[]; alreadyOn: string[] }> {
  const enabled: string[] = [];
  const alreadyOn: string[] = [];
  const steps = [
    ...STANDARD_DEFINITIONS.map((d) => ({ name: `${d.namespace}.${d.key}`, run: () => enableStandard(gql, d) })),
    { name: `${RATING_VALUE.namespace}.${RATING_VALUE.key}`, run: () => createRatingValue(gql) },
  ];
  for (const step of steps) {
    const errors = await step.run();
    if (errors.length === 0) enabled.push(step.name);
    else if (errors.every((e) => e.code && ALREADY_ON.has(e.code))) alreadyOn.push(step.name);
    else throw new ShopifyUserErrors("definitions", gql.shop, errors);
  }
  return { enabled, alreadyOn };
}
