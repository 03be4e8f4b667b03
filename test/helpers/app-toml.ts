import { readFileSync } from "node:fs";
import { ROOT } from "./admin-documents";

// The parts of shopify.app.toml the access checks read: the scopes, the subscribed webhook topics
// (compliance topics need no scope and are left out) and the section names. A few patterns, not a
// TOML parser: the file is ours and keeps to one `key = value` a line.

export interface AppToml {
  scopes: string[];
  topics: string[];
  sections: Set<string>;
}

export function appToml(): AppToml {
  const text = readFileSync(`${ROOT}shopify.app.toml`, "utf8");
  const accessScopes = /^\[access_scopes\]\s*$([\s\S]*?)(?=^\[)/m.exec(text)?.[1] ?? "";
  const scopes = /^\s*scopes\s*=\s*"([^"]*)"/m.exec(accessScopes)?.[1];
  if (scopes === undefined) throw new Error("shopify.app.toml: no scopes in [access_scopes]");
  return {
    scopes: scopes
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
    topics: [...text.matchAll(/^\s*topics\s*=\s*\[([^\]]*)\]/gm)].flatMap((m) =>
      [...m[1].matchAll(/"([^"]+)"/g)].map((t) => t[1]),
    ),
    sections: new Set([...text.matchAll(/^\[([a-z_.]+)\]\s*$/gm)].map((m) => m[1])),
  };
}
