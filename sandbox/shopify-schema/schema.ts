import { existsSync, readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { buildClientSchema, type GraphQLSchema, type IntrospectionQuery } from "graphql";
import { SHOPIFY_API_VERSION } from "../../app/.server/shopify";
import { applyOverlays, type RawSchema, type SchemaOverlay } from "./overlays";

// Shopify's published Admin GraphQL schema per API version: introspection results copied out of
// the @shopify/dev-mcp package by refresh.ts (`npm run schema:refresh`), plus what Shopify has
// documented for the version that the package does not carry yet (overlays.ts). The simulated store
// costs and validates every query against it; the schema tests validate the app's documents.

export interface SchemaSource {
  package: string;
  version: string;
  apiVersion: string;
  /** The package's newest release candidate, and what the files hold for "the next version". */
  releaseCandidate?: string;
  nextVersion?: string;
}

export const SOURCE: SchemaSource = JSON.parse(
  readFileSync(new URL("./source.json", import.meta.url), "utf8"),
) as SchemaSource;

export function schemaFile(version: string): URL {
  return new URL(`./admin_${version}.json.gz`, import.meta.url);
}

export interface LoadedSchema {
  version: string;
  raw: RawSchema;
  schema: GraphQLSchema;
  /** Overlays applied because the packaged file lacks them. */
  overlays: SchemaOverlay[];
}

const cache = new Map<string, LoadedSchema>();

/** The Admin schema of `version` (the app's by default); fails with the refresh command when missing. */
export function loadAdminSchema(version: string = SHOPIFY_API_VERSION): LoadedSchema {
  const hit = cache.get(version);
  if (hit) return hit;
  const file = schemaFile(version);
  if (!existsSync(file))
    throw new Error(`no Admin schema for ${version} at ${file.pathname}: run npm run schema:refresh`);
  const raw = JSON.parse(gunzipSync(readFileSync(file)).toString("utf8")) as RawSchema;
  const overlays = applyOverlays(raw, version);
  const loaded = {
    version,
    raw,
    schema: buildClientSchema(raw.data as unknown as IntrospectionQuery),
    overlays,
  };
  cache.set(version, loaded);
  return loaded;
}
