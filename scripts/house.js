import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

// The house of app/.server (docs/architecture.md): its rooms (a top folder, or a file at the root)
// on floors, from the ground up. A room imports rooms of its own floor or lower, never a floor above;
// test/toolchain/import-graph.test.ts keeps each floor free of circles too. A new room is named here.
export const FLOORS = [
  {
    floor: "ground",
    rooms: [
      "config",
      "dotenv",
      "logger",
      "lifecycle",
      "access-scopes",
      "db",
      "queues",
      "crypto",
      "cache",
      "metrics",
      "security",
    ],
  },
  { floor: "clients and pure rules", rooms: ["shopify", "reviews", "settings", "mapping"] },
  { floor: "job catalogue", rooms: ["jobs"] },
  {
    floor: "domains",
    rooms: [
      "shops",
      "activity",
      "theme",
      "pending-reviews",
      "sync",
      "catalog",
      "resend",
      "consent",
      "orders",
      "storefront",
      "customers",
      "shopapp",
      "flow",
      "backsync",
      "google",
      "compliance",
      "install",
      "webhooks",
    ],
  },
  { floor: "composition", rooms: ["web", "context.server", "admin", "cli", "health"] },
];

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const SERVER = join(ROOT, "app", ".server");
const BROWSER = join(ROOT, "app", "admin");
const floorOf = new Map(FLOORS.flatMap(({ rooms }, i) => rooms.map((room) => [room, i])));
// Tests and their kits may reach into what they prove.
const TEST_SUPPORT = /(\.test\.tsx?|\.testkit\.ts|\.test-helpers\.ts)$/;

const inside = (dir, path) => !relative(dir, path).startsWith("..") && relative(dir, path) !== "";

/** The room of a path under app/.server, and whether the path names it through its door. */
function placeOf(path) {
  const [first, ...rest] = relative(SERVER, path).split(sep);
  const room = first.replace(/\.(tsx?|js)$/, "");
  const door = rest.length === 0 || (rest.length === 1 && /^index(\.tsx?)?$/.test(rest[0]));
  return { room, door };
}

function target(filename, specifier) {
  if (specifier.startsWith("~/")) return join(ROOT, "app", specifier.slice(2));
  if (specifier === "." || specifier === ".." || specifier.startsWith("./") || specifier.startsWith("../"))
    return resolve(dirname(filename), specifier);
  return null;
}

/** What is wrong with `filename` importing `specifier`, or null. */
export function houseProblem(filename, specifier) {
  const to = target(filename, specifier);
  if (!to || TEST_SUPPORT.test(filename) || inside(join(ROOT, "test"), filename)) return null;
  const fromServer = inside(SERVER, filename);
  if (fromServer && inside(BROWSER, to))
    return "Server code never imports the browser-side app/admin/: share the piece through app/shared/.";
  if (!inside(SERVER, to)) return null;
  const there = placeOf(to);
  if (!fromServer) {
    return there.door ? null : `Import app/.server/${there.room}/ through its door ("…/.server/${there.room}").`;
  }
  const here = placeOf(filename);
  if (here.room === there.room) return null;
  for (const room of [here.room, there.room])
    if (!floorOf.has(room)) return `app/.server/${room} stands on no floor: name it in scripts/house.js.`;
  if (floorOf.get(there.room) > floorOf.get(here.room)) {
    const [from, up] = [FLOORS[floorOf.get(here.room)].floor, FLOORS[floorOf.get(there.room)].floor];
    return `${here.room} (${from}) may not import ${there.room} (${up}): a floor never imports the floor above it.`;
  }
  if (!there.door) return `Import ${there.room}/ through its door ("…/${there.room}"), not its modules.`;
  return null;
}

const rule = {
  meta: { type: "problem", schema: [] },
  create(context) {
    const check = (node) => {
      // import "x", export … from "x", import("x"), and the type import("x").T
      const source = node.source ?? node.argument?.literal ?? node.argument;
      if (!source || typeof source.value !== "string") return;
      const problem = houseProblem(context.filename, source.value);
      if (problem) context.report({ node: source, message: problem });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
      TSImportType: check,
    };
  },
};

export const housePlugin = { rules: { rooms: rule } };
