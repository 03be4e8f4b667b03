import {
  GraphQLObjectType,
  TypeInfo,
  getNamedType,
  isInputObjectType,
  parse,
  validate,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type GraphQLSchema,
} from "graphql";
import { SHOPIFY_API_VERSION } from "../../app/.server/shopify/api-version";
import { loadAdminSchema } from "../../sandbox/shopify-schema/schema";

// Shopify's published Admin schema for an API version (an introspection result from @shopify/dev-mcp,
// copied by sandbox/shopify-schema/refresh.ts and loaded by its schema.ts), and what one document asks
// of it: validity, deprecated fields, the access scopes and the protected customer data it reaches.
// The file carries two things graphql-js drops: per type and field the offline scopes it needs
// (`offline_scopes`), and per field whether it is protected customer data (`isProtected`,
// `protectedContent`: name, email, phone, address).

export interface AdminSchema {
  schema: GraphQLSchema;
  /** "Type" or "Type.field" → the scopes of which one is needed (any of them); absent: none. */
  scopesOf: Map<string, string[]>;
  /** "Type.field" → what protected customer data it is (name, email, phone, address). */
  protectedOf: Map<string, string>;
  /** Every scope the schema names anywhere: the access scopes Shopify lists for the Admin API. */
  knownScopes: Set<string>;
  /** Webhook topic ("orders/create") → the scopes of which one it needs ([] when none). */
  topicScopes: Map<string, string[]>;
}

const cached = new Map<string, AdminSchema>();

/** The schema of an API version (SHOPIFY_API_VERSION by default); fails with the refresh command when missing. */
export function adminSchema(version: string = SHOPIFY_API_VERSION): AdminSchema {
  const hit = cached.get(version);
  if (hit) return hit;
  const { raw, schema } = loadAdminSchema(version);
  const scopesOf = new Map<string, string[]>();
  const knownScopes = new Set<string>();
  for (const item of raw.offline_scopes.items) {
    for (const s of item.offlineScopes) knownScopes.add(s);
    if (item.offlineScopes.length === 0) continue;
    scopesOf.set(item.type === "type" ? item.typeName : `${item.typeName}.${item.fieldName}`, item.offlineScopes);
  }
  const protectedOf = new Map<string, string>();
  for (const t of raw.data.__schema.types) {
    for (const f of t.fields ?? [])
      if (f.isProtected && f.protectedContent) protectedOf.set(`${t.name}.${f.name}`, f.protectedContent);
  }
  const topicScopes = new Map<string, string[]>();
  const topics = raw.data.__schema.types.find((t) => t.name === "WebhookSubscriptionTopic");
  for (const v of topics?.enumValues ?? []) {
    const text = (v.description ?? "").replace(/\s+/g, " ");
    const topic = /`([a-z_]+\/[a-z_]+)`/.exec(text)?.[1];
    if (!topic) continue;
    // "Requires the `read_orders` scope." / "Requires at least one of the following scopes: a, b."
    const req = /Requires ([^.]*)\./.exec(text)?.[1] ?? "";
    const scopes = [...req.matchAll(/\b((?:read|write)_[a-z_]+)/g)].map((m) => m[1]);
    for (const s of scopes) knownScopes.add(s);
    topicScopes.set(topic, scopes);
  }
  const loaded = { schema, scopesOf, protectedOf, knownScopes, topicScopes };
  cached.set(version, loaded);
  return loaded;
}

export interface DocumentReport {
  /** graphql-js validation errors against the schema. */
  errors: string[];
  /** Deprecated fields, arguments, enum values and input fields used: "Type.field" → Shopify's reason. */
  deprecated: Map<string, string>;
  /** Scope requirements met on the way (each: any one of these scopes), keyed by "Type" or "Type.field". */
  scopes: Map<string, string[]>;
  /** Protected customer data selected: "Type.field" → name, email, phone or address. */
  protectedData: Map<string, string>;
  /** Connection fields selected, with how many connections enclose each (bulk query limits). */
  connections: { path: string; depth: number }[];
}

/** Validates one document (a string or parsed) and reports what it uses (against the app's version by default). */
export function inspectDocument(source: string | DocumentNode, version: string = SHOPIFY_API_VERSION): DocumentReport {
  const { schema, scopesOf, protectedOf } = adminSchema(version);
  const doc = typeof source === "string" ? parse(source) : source;
  const report: DocumentReport = {
    errors: validate(schema, doc).map((e) => e.message),
    deprecated: new Map(),
    scopes: new Map(),
    protectedData: new Map(),
    connections: [],
  };
  const info = new TypeInfo(schema);
  const path: { name: string; connection: boolean }[] = [];
  const need = (key: string) => {
    const s = scopesOf.get(key);
    if (s) report.scopes.set(key, s);
  };
  visit(
    doc,
    visitWithTypeInfo(info, {
      Field: {
        enter(node) {
          const parent = info.getParentType();
          const def = info.getFieldDef();
          const named = def ? getNamedType(def.type) : undefined;
          const connection = named instanceof GraphQLObjectType && named.name.endsWith("Connection");
          path.push({ name: node.name.value, connection });
          if (!parent || !def) return;
          const coordinate = `${parent.name}.${def.name}`;
          if (def.deprecationReason != null) report.deprecated.set(coordinate, def.deprecationReason);
          need(coordinate);
          if (named) need(named.name);
          const content = protectedOf.get(coordinate);
          if (content) report.protectedData.set(coordinate, content);
          if (connection) {
            report.connections.push({
              path: path.map((p) => p.name).join("."),
              depth: path.filter((p) => p.connection).length,
            });
          }
        },
        leave() {
          path.pop();
        },
      },
      InlineFragment() {
        const t = info.getType();
        if (t) need(getNamedType(t).name);
      },
      Argument() {
        const arg = info.getArgument();
        const field = info.getFieldDef();
        if (arg?.deprecationReason != null)
          report.deprecated.set(`${field?.name}(${arg.name}:)`, arg.deprecationReason);
      },
      EnumValue() {
        const value = info.getEnumValue();
        if (value?.deprecationReason != null)
          report.deprecated.set(`${String(info.getInputType())}.${value.name}`, value.deprecationReason);
      },
      ObjectField(node) {
        const parent = info.getParentInputType();
        const owner = parent ? getNamedType(parent) : undefined;
        const field = owner && isInputObjectType(owner) ? owner.getFields()[node.name.value] : undefined;
        if (field?.deprecationReason != null)
          report.deprecated.set(`${owner!.name}.${field.name}`, field.deprecationReason);
      },
    }),
  );
  return report;
}
