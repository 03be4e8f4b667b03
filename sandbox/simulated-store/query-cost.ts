import {
  GraphQLObjectType,
  Kind,
  getArgumentValues,
  getNamedType,
  getNullableType,
  getVariableValues,
  isAbstractType,
  isLeafType,
  isListType,
  parse,
  validate,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionNode,
  type ValueNode,
} from "graphql";
import type { GraphqlError } from "./router";

// A query's requested cost as Shopify computes it before running it ("Rate limits", GraphQL Admin
// API): an object 1, a scalar or enum 0, an interface or union the most any of its types costs, a
// connection 2 + first (or last) × (1 + what one node's selection costs), a list of objects its
// `first` (1 without one) × the object, a mutation 10 per mutation field whatever it selects.
// Fields skipped by @skip/@include cost nothing, and the same response key selected twice is one
// field. A bulk query is the string argument of bulkOperationRunQuery, so it is never costed here.
// Over MAX_QUERY_COST Shopify refuses the query without running it (MAX_COST_EXCEEDED).

export const MAX_QUERY_COST = 1_000;
const MUTATION_COST = 10;

/** Why Shopify answers a document with errors instead of running it. */
export class QueryRefused extends Error {
  constructor(readonly errors: GraphqlError[]) {
    super(errors.map((e) => e.message).join("; "));
  }
}

interface Walk {
  schema: GraphQLSchema;
  fragments: Map<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
}

function skipped(node: SelectionNode, variables: Record<string, unknown>): boolean {
  for (const d of node.directives ?? []) {
    const arg = d.arguments?.find((a) => a.name.value === "if");
    if (!arg) continue;
    const value = literal(arg.value, variables);
    if (d.name.value === "skip" && value === true) return true;
    if (d.name.value === "include" && value === false) return true;
  }
  return false;
}

function literal(node: ValueNode, variables: Record<string, unknown>): unknown {
  if (node.kind === Kind.VARIABLE) return variables[node.name.value];
  if (node.kind === Kind.BOOLEAN) return node.value;
  if (node.kind === Kind.INT) return Number(node.value);
  return undefined;
}

function applies(w: Walk, condition: string | undefined, type: GraphQLCompositeType): boolean {
  if (!condition || condition === type.name) return true;
  const cond = w.schema.getType(condition);
  return !!cond && isAbstractType(cond) && type instanceof GraphQLObjectType && w.schema.isSubType(cond, type);
}

/** The fields a selection set selects on `type`, grouped by response key (fragments flattened). */
function collectFields(
  w: Walk,
  selections: readonly SelectionNode[],
  type: GraphQLCompositeType,
  out = new Map<string, FieldNode[]>(),
): Map<string, FieldNode[]> {
  for (const s of selections) {
    if (skipped(s, w.variables)) continue;
    if (s.kind === Kind.FIELD) {
      const key = s.alias?.value ?? s.name.value;
      out.set(key, [...(out.get(key) ?? []), s]);
    } else if (s.kind === Kind.INLINE_FRAGMENT) {
      if (applies(w, s.typeCondition?.name.value, type)) collectFields(w, s.selectionSet.selections, type, out);
    } else {
      const fragment = w.fragments.get(s.name.value);
      if (fragment && applies(w, fragment.typeCondition.name.value, type))
        collectFields(w, fragment.selectionSet.selections, type, out);
    }
  }
  return out;
}

function hasTypedFragment(w: Walk, selections: readonly SelectionNode[]): boolean {
  return selections.some((s) =>
    s.kind === Kind.INLINE_FRAGMENT
      ? !!s.typeCondition || hasTypedFragment(w, s.selectionSet.selections)
      : s.kind === Kind.FRAGMENT_SPREAD,
  );
}

/** What a selection set costs on `type` (an abstract type: the most any of its types costs). */
function selectionCost(w: Walk, selections: readonly SelectionNode[], type: GraphQLCompositeType): number {
  if (isAbstractType(type) && hasTypedFragment(w, selections)) {
    return Math.max(0, ...w.schema.getPossibleTypes(type).map((t) => fieldsCost(w, selections, t)));
  }
  return fieldsCost(w, selections, type);
}

function fieldsCost(w: Walk, selections: readonly SelectionNode[], type: GraphQLCompositeType): number {
  const fields = "getFields" in type ? type.getFields() : {};
  let total = 0;
  for (const nodes of collectFields(w, selections, type).values()) {
    const def = fields[nodes[0].name.value];
    if (def) total += fieldCost(w, nodes, def);
  }
  return total;
}

const subSelections = (nodes: FieldNode[]) => nodes.flatMap((n) => n.selectionSet?.selections ?? []);

function pageSize(w: Walk, nodes: FieldNode[], def: GraphQLField<unknown, unknown>): number | undefined {
  const args = getArgumentValues(def, nodes[0], w.variables) as { first?: number | null; last?: number | null };
  return args.first ?? args.last ?? undefined;
}

function isConnection(type: unknown): type is GraphQLObjectType {
  return type instanceof GraphQLObjectType && type.name.endsWith("Connection") && "pageInfo" in type.getFields();
}

function fieldCost(w: Walk, nodes: FieldNode[], def: GraphQLField<unknown, unknown>): number {
  const named = getNamedType(def.type);
  if (isLeafType(named)) return 0;
  const selections = subSelections(nodes);
  if (isConnection(named)) {
    const n = pageSize(w, nodes, def);
    if (n === undefined) {
      const path = nodes[0].alias?.value ?? nodes[0].name.value;
      throw new QueryRefused([{ message: "you must provide one of first or last", path: [path] }]);
    }
    return 2 + n * connectionNodeCost(w, selections, named);
  }
  const object = 1 + selectionCost(w, selections, named as GraphQLCompositeType);
  if (isListType(getNullableType(def.type))) return (pageSize(w, nodes, def) ?? 1) * object;
  return object;
}

/** What one node of a connection costs: `nodes { … }` or `edges { node { … } }`, whichever costs more. */
function connectionNodeCost(w: Walk, selections: readonly SelectionNode[], connection: GraphQLObjectType): number {
  const fields = collectFields(w, selections, connection);
  const nodeType = getNamedType(connection.getFields().nodes?.type ?? connection.getFields().edges.type);
  let cost = 0;
  const nodes = fields.get("nodes");
  if (nodes) cost = Math.max(cost, 1 + selectionCost(w, subSelections(nodes), nodeType as GraphQLCompositeType));
  for (const [, edges] of fields) {
    if (edges[0].name.value !== "edges") continue;
    const edgeType = getNamedType(connection.getFields().edges.type) as GraphQLObjectType;
    for (const [, node] of collectFields(w, subSelections(edges), edgeType)) {
      if (node[0].name.value !== "node") continue;
      const type = getNamedType(edgeType.getFields().node.type) as GraphQLCompositeType;
      cost = Math.max(cost, 1 + selectionCost(w, subSelections(node), type));
    }
  }
  return cost;
}

function operationOf(doc: DocumentNode, operationName: string | undefined): OperationDefinitionNode {
  const ops = doc.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const op = operationName ? ops.find((o) => o.name?.value === operationName) : ops.length === 1 ? ops[0] : undefined;
  if (!op)
    throw new QueryRefused([
      { message: operationName ? `No operation named "${operationName}"` : "An operation name is required" },
    ]);
  return op;
}

/** The requested cost of one operation of a parsed, valid document with these variables. */
export function requestedQueryCost(
  schema: GraphQLSchema,
  doc: DocumentNode,
  rawVariables: Record<string, unknown> = {},
  operationName?: string,
): number {
  const op = operationOf(doc, operationName);
  const coerced = getVariableValues(schema, op.variableDefinitions ?? [], rawVariables);
  if (coerced.errors) throw new QueryRefused(coerced.errors.map((e) => ({ message: e.message })));
  const w: Walk = {
    schema,
    variables: coerced.coerced,
    fragments: new Map(
      doc.definitions
        .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
        .map((d) => [d.name.value, d]),
    ),
  };
  const root = op.operation === "mutation" ? schema.getMutationType() : schema.getQueryType();
  if (!root) throw new QueryRefused([{ message: `Schema is not configured for ${op.operation}s` }]);
  if (op.operation === "mutation") return collectFields(w, op.selectionSet.selections, root).size * MUTATION_COST;
  return selectionCost(w, op.selectionSet.selections, root);
}

const parsed = new Map<string, DocumentNode>();
const PARSED_MAX = 1_000;

/** Parses and validates a document against the schema once; a bad one is refused as Shopify does. */
export function checkedDocument(schema: GraphQLSchema, source: string): DocumentNode {
  const hit = parsed.get(source);
  if (hit) return hit;
  let doc: DocumentNode;
  try {
    doc = parse(source);
  } catch (error) {
    throw new QueryRefused([{ message: error instanceof Error ? error.message : String(error) }]);
  }
  const errors = validate(schema, doc);
  if (errors.length) throw new QueryRefused(errors.map((e) => ({ message: e.message })));
  if (parsed.size >= PARSED_MAX) parsed.delete(parsed.keys().next().value!);
  parsed.set(source, doc);
  return doc;
}

/** Shopify's answer to a query over the single-query limit (no `extensions.cost` beside it). */
export function maxCostExceeded(cost: number): GraphqlError {
  return {
    message:
      `Query cost is ${cost}, which exceeds the single query max cost limit (${MAX_QUERY_COST}).\n\n` +
      "See https://shopify.dev/docs/api/usage/rate-limits for more information on how the\n" +
      "cost of a query is calculated.\n\n" +
      "To query larger amounts of data with fewer limits, bulk operations should be used instead.\n" +
      "See https://shopify.dev/docs/api/usage/bulk-operations/queries for usage details.\n",
    extensions: {
      code: "MAX_COST_EXCEEDED",
      cost,
      maxCost: MAX_QUERY_COST,
      documentation: "https://shopify.dev/api/usage/rate-limits",
    },
  };
}
