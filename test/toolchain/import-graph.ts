import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";

// The folder-level import graph of app/.server: a room is a top folder (`catalog/`) or a file at
// the root (`config.ts` → `config`); an arrow is any import of one room's file by another room's,
// type imports and dynamic imports included. Tests and their kits are left out: they may reach
// into what they prove.

export interface Arrow {
  from: string;
  to: string;
  /** Each import that draws the arrow, "file → imported file", from the root given. */
  imports: string[];
}

const TEST_SUPPORT = /\.test\.tsx?$|\.testkit\.ts$|\.test-helpers\.ts$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !TEST_SUPPORT.test(name) ? [path] : [];
  });
}

function resolveImport(root: string, from: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith("~/")) base = join(root, "app", specifier.slice(2));
  else if (specifier.startsWith(".")) base = resolve(dirname(from), specifier);
  else return null;
  const candidates = [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts"), join(base, "index.tsx")];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile()) ?? base;
}

/** The room of a file under `server`, or the file's path from `root` when it lies outside. */
export function roomOf(root: string, server: string, file: string): string {
  const path = relative(server, file);
  if (path.startsWith("..")) return relative(root, file).split(sep).join("/");
  const [first, ...rest] = path.split(sep);
  return rest.length ? first! : first!.replace(/\.tsx?$/, "");
}

/** The arrows between the rooms of `root`/app/.server (or of `server`, a folder under `root`). */
export function importGraph(root: string, server = join(root, "app/.server")): Arrow[] {
  const arrows = new Map<string, Arrow>();
  for (const file of sourceFiles(server)) {
    const from = roomOf(root, server, file);
    const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    for (const { fileName } of importedFiles) {
      const target = resolveImport(root, file, fileName);
      if (!target) continue;
      const to = roomOf(root, server, target);
      if (to === from) continue;
      const key = `${from} -> ${to}`;
      const arrow = arrows.get(key) ?? { from, to, imports: [] };
      arrow.imports.push(`${relative(root, file)} → ${relative(root, target)}`);
      arrows.set(key, arrow);
    }
  }
  return [...arrows.values()];
}

/** Circles among the rooms: each as the rooms of one strongly connected group, sorted. */
export function circles(arrows: Arrow[]): string[][] {
  const next = new Map<string, string[]>();
  for (const a of arrows) next.set(a.from, [...(next.get(a.from) ?? []), a.to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let counter = 0;
  const visit = (room: string) => {
    index.set(room, counter);
    low.set(room, counter++);
    stack.push(room);
    onStack.add(room);
    for (const to of next.get(room) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(room, Math.min(low.get(room)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(room, Math.min(low.get(room)!, index.get(to)!));
    }
    if (low.get(room) !== index.get(room)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== room);
    if (group.length > 1) found.push(group.sort());
  };
  for (const room of next.keys()) if (!index.has(room)) visit(room);
  return found;
}

/**
 * Arrows that run up, or to a room no floor names: `floors` lists the rooms of each floor from
 * the ground up. A room outside app/.server (a path) may be named on a floor too: `allowedOutside`
 * lists the paths (prefixes) a room may import from outside it, any floor.
 */
export function upwardArrows(arrows: Arrow[], floors: readonly (readonly string[])[], allowedOutside: string[] = []) {
  const floorOf = new Map(floors.flatMap((rooms, i) => rooms.map((room) => [room, i] as const)));
  return arrows.filter((a) => {
    const from = floorOf.get(a.from);
    if (from === undefined) return true;
    if (a.to.includes("/")) return !allowedOutside.some((prefix) => a.to.startsWith(prefix));
    const to = floorOf.get(a.to);
    return to === undefined || to > from;
  });
}
