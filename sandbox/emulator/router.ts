// A small path router. Several spec paths overlap (`/{customer}/{sku}/summary` and
// `/{customer}/store-reviews/summary`, `/{customer}/{sku}/questions` and our
// `/{customer}/rating-link/{orderId}`), so a literal segment beats a parameter, compared left
// to right. A path that matches only under another method answers 405 with `Allow`.
import type { Reply } from "./http";

export type Method = "GET" | "POST" | "PUT" | "DELETE";

/** Admin API routes need a Bearer token bound to `{customer}`; the others are open. */
export type RouteAuth = "admin" | "none";

export interface RouteContext<S = unknown> {
  method: string;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  /** Parsed JSON body, `undefined` when the body was empty. */
  body: unknown;
  rawBody: Buffer;
  headers: Record<string, string | string[] | undefined>;
  services: S;
}

export interface Route<S = unknown> {
  method: Method;
  pattern: string;
  auth: RouteAuth;
  /** `raw`: the handler reads `rawBody` itself (uploads); `json` bodies are parsed before it runs. */
  body?: "json" | "raw";
  /** Client API routes answer CORS preflights: the storefront calls them from the browser. */
  cors?: boolean;
  handler: (ctx: RouteContext<S>) => Reply | Promise<Reply>;
}

interface Compiled<S> {
  route: Route<S>;
  segments: { literal?: string; param?: string; rest?: string }[];
}

export type Match<S> =
  | { kind: "found"; route: Route<S>; params: Record<string, string> }
  | { kind: "method"; allow: Method[]; cors: boolean }
  | { kind: "none" };

export class Router<S> {
  private readonly routes: Compiled<S>[] = [];

  add(...routes: Route<S>[]): this {
    for (const route of routes) {
      const segments = route.pattern
        .split("/")
        .filter(Boolean)
        .map((s) =>
          s.startsWith("*") ? { rest: s.slice(1) } : s.startsWith(":") ? { param: s.slice(1) } : { literal: s },
        );
      this.routes.push({ route, segments });
    }
    return this;
  }

  match(method: string, path: string): Match<S> {
    const raw = path.split("/").filter(Boolean);
    let segs: string[];
    try {
      segs = raw.map((s) => decodeURIComponent(s));
    } catch {
      return { kind: "none" };
    }
    const candidates: { c: Compiled<S>; params: Record<string, string>; score: number[] }[] = [];
    for (const c of this.routes) {
      const params = matchSegments(c.segments, segs);
      if (params) candidates.push({ c, params, score: c.segments.map((s) => (s.literal ? 2 : s.param ? 1 : 0)) });
    }
    if (candidates.length === 0) return { kind: "none" };
    const sameMethod = candidates.filter((x) => x.c.route.method === method);
    if (sameMethod.length === 0) {
      const allow = [...new Set(candidates.map((x) => x.c.route.method))];
      return { kind: "method", allow, cors: candidates.some((x) => x.c.route.cors) };
    }
    sameMethod.sort((a, b) => compareScores(b.score, a.score));
    const best = sameMethod[0];
    return { kind: "found", route: best.c.route, params: best.params };
  }
}

function matchSegments(pattern: Compiled<unknown>["segments"], segs: string[]): Record<string, string> | null {
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i];
    if (p.rest !== undefined) {
      if (i >= segs.length) return null;
      params[p.rest] = segs.slice(i).join("/");
      return params;
    }
    if (i >= segs.length) return null;
    if (p.literal !== undefined) {
      if (p.literal !== segs[i]) return null;
    } else if (p.param !== undefined) {
      if (segs[i] === "") return null;
      params[p.param] = segs[i];
    }
  }
  return pattern.length === segs.length ? params : null;
}

function compareScores(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? -1) - (b[i] ?? -1);
    if (d !== 0) return d;
  }
  return 0;
}
