// Admin GraphQL documents for metafields, definitions and Flow: what the back-sync writes and what
// the local storefront (and tests) read back. Every document has an operation name: the simulated
// store (sandbox/simulated-store/metafields.ts) and cost tracking key on it.

const METAFIELD_NODE = `
        id
        namespace
        key
        type
        value
        compareDigest
        updatedAt`;

/**
 * Switches on a standard metafield definition from its template (`reviews.rating`,
 * `reviews.rating_count`). Variables: `{ ownerType: "PRODUCT", namespace, key }`. Enabling one that
 * is already on answers the userError code TAKEN, which callers treat as done.
 */
/** An app-owned definition (`$app:…` namespace); TAKEN when it exists already. */
export const METAFIELD_DEFINITION_CREATE = /* GraphQL */ `
  mutation MetafieldDefinitionCreate($definition: MetafieldDefinitionInput!) {
    metafieldDefinitionCreate(definition: $definition) {
      createdDefinition {
        id
        name
        namespace
        key
        type {
          name
        }
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`;

export const STANDARD_METAFIELD_DEFINITION_ENABLE = /* GraphQL */ `
  mutation StandardMetafieldDefinitionEnable($ownerType: MetafieldOwnerType!, $namespace: String!, $key: String!) {
    standardMetafieldDefinitionEnable(ownerType: $ownerType, namespace: $namespace, key: $key, pin: true) {
      createdDefinition {
        id
        name
        namespace
        key
        type {
          name
        }
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`;

/**
 * At most 25 metafields a call, atomic (one userError and nothing is written). Variables: `{ metafields:
 * MetafieldsSetInput[] }`.
 */
export const METAFIELDS_SET = /* GraphQL */ `
  mutation MetafieldsSet($metafields: [MetafieldsSetInput!]!) {
    metafieldsSet(metafields: $metafields) {
      metafields {
        id
        namespace
        key
      }
      userErrors {
        field
        message
        code
        elementIndex
      }
    }
  }
`;

/**
 * Variables: `{ metafields: [{ ownerId, namespace, key }] }`; a metafield that does not exist answers null in its
 * place.
 */
export const METAFIELDS_DELETE = /* GraphQL */ `
  mutation MetafieldsDelete($metafields: [MetafieldIdentifierInput!]!) {
    metafieldsDelete(metafields: $metafields) {
      deletedMetafields {
        ownerId
        namespace
        key
      }
      userErrors {
        field
        message
      }
    }
  }
`;

/** The app installation's id (owner of app-data metafields) and its metafields in `$namespace`. */
export const CURRENT_APP_INSTALLATION = /* GraphQL */ `
  query CurrentAppInstallation($namespace: String) {
    currentAppInstallation {
      id
      metafields(first: 50, namespace: $namespace) {
        nodes {${METAFIELD_NODE}
        }
      }
    }
  }
`;

/** Only the app installation's id (the owner of app-data metafields): the cheapest read of it. */
export const APP_INSTALLATION_ID = /* GraphQL */ `
  query AppInstallationId {
    currentAppInstallation {
      id
    }
  }
`;

/** One product's metafields (the first 50, optionally of one namespace). */
export const PRODUCT_METAFIELDS = /* GraphQL */ `
  query ProductMetafields($id: ID!, $namespace: String) {
    product(id: $id) {
      id
      handle
      title
      metafields(first: 50, namespace: $namespace) {
        nodes {${METAFIELD_NODE}
        }
      }
    }
  }
`;

/** One metafield of a product, or null. */
export const PRODUCT_METAFIELD = /* GraphQL */ `
  query ProductMetafield($id: ID!, $namespace: String!, $key: String!) {
    product(id: $id) {
      id
      metafield(namespace: $namespace, key: $key) {${METAFIELD_NODE}
      }
    }
  }
`;

const STOREFRONT_PRODUCT_FIELDS = `
      id
      handle
      title
      descriptionHtml
      vendor
      productType
      status
      featuredMedia {
        preview {
          image {
            url
          }
        }
      }
      variants(first: 10) {
        nodes {
          id
          title
          price
        }
      }
      metafields(first: 50) {
        nodes {${METAFIELD_NODE}
        }
      }`;

/**
 * A page of products with their metafields (product cards, the local storefront's index). Variables: `{ first, after,
 * query }`.
 */
export const PRODUCTS_WITH_METAFIELDS = /* GraphQL */ `
  query ProductsWithMetafields($first: Int!, $after: String, $query: String) {
    products(first: $first, after: $after, query: $query) {
      nodes {${STOREFRONT_PRODUCT_FIELDS}
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`;

/**
 * Which products hold their ratings and snapshot: the metafields by name and nothing else, so a
 * page of 100 costs about 500 points where the whole metafield list of 50 would cost 3,000 and wait
 * on the throttle. Variables: `{ first, after }`.
 */
export const PRODUCT_RATINGS = /* GraphQL */ `
  query ProductRatings($first: Int!, $after: String) {
    products(first: $first, after: $after) {
      nodes {
        id
        rating: metafield(namespace: "reviews", key: "rating") {
          value
        }
        ratingCount: metafield(namespace: "reviews", key: "rating_count") {
          value
        }
        ratingValue: metafield(namespace: "$app:reviews", key: "rating_value") {
          value
        }
        snapshot: metafield(namespace: "$app:reviews", key: "snapshot") {
          id
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`;

/** A product by handle with its metafields (a product page), or null. */
export const PRODUCT_BY_HANDLE = /* GraphQL */ `
  query ProductByHandle($handle: String!) {
    productByIdentifier(identifier: { handle: $handle }) {${STOREFRONT_PRODUCT_FIELDS}
    }
  }
`;

/**
 * Starts the Flow workflows of one trigger. Variables: `{ handle, payload }` (payload: the trigger's declared fields).
 */
export const FLOW_TRIGGER_RECEIVE = /* GraphQL */ `
  mutation FlowTriggerReceive($handle: String!, $payload: JSON!) {
    flowTriggerReceive(handle: $handle, payload: $payload) {
      userErrors {
        field
        message
      }
    }
  }
`;
