import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { Kind, parse, type OperationDefinitionNode } from "graphql";
import * as documents from "../../app/.server/shopify/documents";
import * as metafieldDocuments from "../../app/.server/shopify/metafield-documents";
import * as metaobjectDocuments from "../../app/.server/shopify/metaobject-documents";
import * as orderDocuments from "../../app/.server/shopify/order-documents";
import * as productDocuments from "../../app/.server/shopify/product-documents";
import * as shopperDocuments from "../../app/.server/shopify/shopper-documents";

// Every Admin GraphQL document the app sends, found rather than listed: each exported string of the
// documents modules, and what each exported bulk query builder returns for representative
// arguments. A file elsewhere that holds an operation is reported by `operationsOutsideModules`, so
// neither a new document nor a new documents module can be left out of the schema test.

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The modules that hold the app's Admin documents (relative to the repository). */
export const DOCUMENT_MODULES: Record<string, Record<string, unknown>> = {
  "app/.server/shopify/documents.ts": documents,
  "app/.server/shopify/metafield-documents.ts": metafieldDocuments,
  "app/.server/shopify/metaobject-documents.ts": metaobjectDocuments,
  "app/.server/shopify/order-documents.ts": orderDocuments,
  "app/.server/shopify/product-documents.ts": productDocuments,
  "app/.server/shopify/shopper-documents.ts": shopperDocuments,
};

/**
 * Representative arguments for each bulk query builder: every option on and off, so each branch
 * of the builder is validated. A builder exported without an entry here fails the schema test.
 */
export const BULK_BUILDER_ARGUMENTS: Record<string, unknown[][]> = {
  bulkProductsQuery: [
    [],
    [
      {
        metafieldKeys: ["custom.material", "specs.weight_kg"],
        collections: true,
        updatedSince: "2026-11-01T00:00:00Z",
      },
    ],
    [{ metafieldKeys: [], collections: false, updatedSince: new Date("2026-11-20T08:30:00.000Z") }],
  ],
  bulkOrdersQuery: [
    [{ createdSince: "2026-09-27T00:00:00Z" }],
    [{ createdSince: new Date("2026-11-01T12:00:00.000Z") }],
  ],
};

export interface FoundDocument {
  /** Export name, or `builder(args #n)` for a bulk query. */
  name: string;
  module: string;
  source: string;
  /** The operation's name (null: anonymous, as bulk queries are). */
  operation: string | null;
  kind: "operation" | "bulk";
}

export interface Discovery {
  documents: FoundDocument[];
  /** Exports that are neither a named operation nor a bulk builder with arguments here. */
  unexpected: string[];
}

function operationOf(source: string): OperationDefinitionNode | null {
  const ops = parse(source).definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  return ops.length === 1 ? ops[0] : null;
}

export function discoverDocuments(): Discovery {
  const found: FoundDocument[] = [];
  const unexpected: string[] = [];
  // A module may re-export another's document or builder: it is found once, in its first module.
  const seen = new Set<unknown>();
  for (const [module, exports] of Object.entries(DOCUMENT_MODULES)) {
    for (const [name, value] of Object.entries(exports)) {
      if (seen.has(value)) continue;
      seen.add(value);
      if (typeof value === "string") {
        let op: OperationDefinitionNode | null = null;
        try {
          op = operationOf(value);
        } catch {
          // reported below
        }
        if (!op?.name) unexpected.push(`${module}: ${name} is exported but is not one named operation`);
        found.push({ name, module, source: value, operation: op?.name?.value ?? null, kind: "operation" });
      } else if (typeof value === "function") {
        const calls = BULK_BUILDER_ARGUMENTS[name];
        if (!calls) {
          unexpected.push(
            `${module}: ${name} is an exported function with no representative arguments in BULK_BUILDER_ARGUMENTS`,
          );
          continue;
        }
        calls.forEach((args, i) => {
          const source = (value as (...a: unknown[]) => unknown)(...args);
          if (typeof source !== "string") {
            unexpected.push(`${module}: ${name}(args #${i + 1}) did not return a string`);
            return;
          }
          found.push({ name: `${name}(args #${i + 1})`, module, source, operation: null, kind: "bulk" });
        });
      }
    }
  }
  return { documents: found, unexpected };
}

// An operation in a template literal: `query Name(` or `mutation Name {`, after optional whitespace.
const OPERATION_IN_LITERAL = /`\s*(?:query|mutation)\s+[A-Za-z_]\w*\s*[({]/;
const SCANNED = ["app", "workers", "server", "extensions"];
// Built or installed code; app/.server is the app's own (a dot is no reason to skip a folder).
const SKIPPED_DIRS = new Set(["node_modules", "dist", "build", ".shopify", ".git"]);

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED_DIRS.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|tsx|js|jsx)$/.test(entry.name) && !/\.(test|testkit)\.tsx?$/.test(entry.name)) out.push(path);
  }
  return out;
}

/** Source files (not tests) holding a GraphQL operation outside DOCUMENT_MODULES. */
export function operationsOutsideModules(): string[] {
  const modules = new Set(Object.keys(DOCUMENT_MODULES));
  return SCANNED.flatMap((d) => sourceFiles(join(ROOT, d)))
    .map((f) => relative(ROOT, f))
    .filter((f) => !modules.has(f) && OPERATION_IN_LITERAL.test(readFileSync(join(ROOT, f), "utf8")));
}
