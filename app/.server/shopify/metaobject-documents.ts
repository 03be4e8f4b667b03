// Admin GraphQL documents for Shopify's standard product review metaobject (`product_review`), the
// definition that makes reviews eligible for the Shop app. Restricted: Shopify grants it to apps in
// its review syndication program (and to their development stores for testing). Every document has
// an operation name: the simulated store (sandbox/simulated-store/metaobjects.ts) and cost tracking
// key on it.

const USER_ERRORS = `
      userErrors {
        field
        message
        code
      }`;

/**
 * Switches on a standard metaobject definition from its template. Variables: `{ type }`. An app
 * outside the program answers NOT_AUTHORIZED; one already on answers TAKEN, which callers treat as
 * done.
 */
export const STANDARD_METAOBJECT_DEFINITION_ENABLE = /* GraphQL */ `
  mutation StandardMetaobjectDefinitionEnable($type: String!) {
    standardMetaobjectDefinitionEnable(type: $type) {
      metaobjectDefinition {
        id
        type
      }${USER_ERRORS}
    }
  }
`;

/** The definition of a type, with how many metaobjects it holds; null when it is not on. */
export const METAOBJECT_DEFINITION_BY_TYPE = /* GraphQL */ `
  query MetaobjectDefinitionByType($type: String!) {
    metaobjectDefinitionByType(type: $type) {
      id
      type
      metaobjectsCount
    }
  }
`;

/**
 * Creates or updates the metaobject of one handle: the same call twice leaves one metaobject, so a
 * retried batch writes nothing twice. Variables: `{ handle: { type, handle }, metaobject: { fields } }`.
 * A refused field is named by `elementKey` (its key), so it can be logged without its value.
 */
export const METAOBJECT_UPSERT = /* GraphQL */ `
  mutation MetaobjectUpsert($handle: MetaobjectHandleInput!, $metaobject: MetaobjectUpsertInput!) {
    metaobjectUpsert(handle: $handle, metaobject: $metaobject) {
      metaobject {
        id
        handle
        updatedAt
      }
      userErrors {
        field
        message
        code
        elementKey
      }
    }
  }
`;

/** The id of the metaobject of one handle (null when there is none). */
export const METAOBJECT_BY_HANDLE = /* GraphQL */ `
  query MetaobjectByHandle($handle: MetaobjectHandleInput!) {
    metaobjectByHandle(handle: $handle) {
      id
      handle
    }
  }
`;

/** Deletes one metaobject by id; RECORD_NOT_FOUND when it is gone already. */
export const METAOBJECT_DELETE = /* GraphQL */ `
  mutation MetaobjectDelete($id: ID!) {
    metaobjectDelete(id: $id) {
      deletedId${USER_ERRORS}
    }
  }
`;
