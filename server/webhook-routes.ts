import type { Express, Request as ExpressRequest, Response as ExpressResponse } from "express";
import type { ActionFunction, ServerBuild } from "@remix-run/node";

// Webhook deliveries skip Remix's request handler: Remix matches every request against every route
// (flattening and ranking the route tree anew each time), about a fifth of the web process's CPU at
// 1,000 deliveries/s (profiled), while a webhook's route is known from its path alone. The route
// module's own action answers, the one `shopify app dev` and the tests call, so a delivery gets the
// same answer either way. Paths with no webhook route, and other methods, go on to Remix.

/** Each webhook route's full path ("/webhooks/products/update") and its action, from the build. */
export function webhookActions(build: ServerBuild): Map<string, ActionFunction> {
  const actions = new Map<string, ActionFunction>();
  for (const route of Object.values(build.routes)) {
    const action = route.module.action;
    if (!action) continue;
    const path = fullPath(build, route.id);
    if (path?.startsWith("/webhooks/")) actions.set(path, action);
  }
  return actions;
}

function fullPath(build: ServerBuild, id: string): string | undefined {
  const parts: string[] = [];
  for (
    let route: ServerBuild["routes"][string] | undefined = build.routes[id];
    route;
    route = route.parentId ? build.routes[route.parentId] : undefined
  ) {
    // Dynamic segments would need Remix's matcher: such a route is left to it.
    if (route.path?.includes(":") || route.path?.includes("*")) return undefined;
    if (route.path) parts.unshift(route.path);
  }
  return `/${parts.join("/")}`;
}

/** Mounts a POST handler per webhook route, in front of Remix; returns how many. */
export function mountWebhookRoutes(app: Express, build: ServerBuild, maxBytes: number): number {
  const actions = webhookActions(build);
  for (const [path, action] of actions) {
    app.post(path, (req, res, next) => {
      answer(req, res, path, action, maxBytes).catch(next);
    });
  }
  return actions.size;
}

async function answer(
  req: ExpressRequest,
  res: ExpressResponse,
  path: string,
  action: ActionFunction,
  maxBytes: number,
): Promise<void> {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  // The action refuses a declared length over the limit before reading; a body without one is read
  // only up to the limit, so no request can make the process hold more.
  const declared = Number(req.headers["content-length"] ?? Number.NaN);
  const body = declared > maxBytes ? undefined : await readUpTo(req, maxBytes);
  if (body === null) {
    res.status(413).set("Connection", "close").end();
    return;
  }
  const request = new Request(`http://${req.headers.host ?? "localhost"}${path}`, {
    method: "POST",
    headers,
    body,
  });
  let response: Response;
  try {
    response = (await action({ request, params: {}, context: {} })) as Response;
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    response = thrown;
  }
  res.status(response.status);
  response.headers.forEach((value, name) => res.setHeader(name, value));
  res.end(response.body ? Buffer.from(await response.arrayBuffer()) : undefined);
}

/** The body, or null when it is longer than `max` (the rest is left unread: the answer closes the connection). */
function readUpTo(req: ExpressRequest, max: number): Promise<Buffer<ArrayBuffer> | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const onData = (chunk: Buffer) => {
      length += chunk.length;
      if (length <= max) return void chunks.push(chunk);
      req.off("data", onData);
      req.pause();
      resolve(null);
    };
    req.on("data", onData);
    req.once("end", () => resolve(Buffer.concat(chunks)));
    req.once("error", reject);
  });
}
