import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

// The app's proxy routes (and the UI extensions' backend routes) behind a small real HTTP server: Node's request made
// into a Fetch Request,
// handed to the route module Remix would call (`apps.reviews.products.$sku.reviews` or the
// `apps.reviews.$` catch-all), its Response written back. The route modules are the real ones.

type RouteFn = (a: { request: Request; params: Record<string, string>; context: object }) => Promise<Response>;

export interface ProxyAppServer {
  origin: string;
  close(): Promise<void>;
}

/** `onHandled`: the time each request took from its arrival to its answer written (benchmarks). */
export async function startProxyAppServer(opts: { onHandled?: (ms: number) => void } = {}): Promise<ProxyAppServer> {
  const rest = await import("../../app/routes/apps.reviews.$");
  // The proxy's route modules by path, as Remix's file routes map them (the deepest match first).
  const table: { pattern: RegExp; names: string[]; module: { loader?: unknown; action?: unknown } }[] = [
    {
      pattern: /^\/apps\/reviews\/products\/([^/]+)\/reviews\/([^/]+)\/attributes\/?$/,
      names: ["sku", "reviewId"],
      module: await import("../../app/routes/apps.reviews.products.$sku.reviews.$reviewId.attributes"),
    },
    {
      pattern: /^\/apps\/reviews\/products\/([^/]+)\/reviews\/([^/]+)\/vote\/?$/,
      names: ["sku", "reviewId"],
      module: await import("../../app/routes/apps.reviews.products.$sku.reviews.$reviewId.vote"),
    },
    {
      pattern: /^\/apps\/reviews\/products\/([^/]+)\/reviews\/([^/]+)\/media\/confirm\/?$/,
      names: ["sku", "reviewId"],
      module: await import("../../app/routes/apps.reviews.products.$sku.reviews.$reviewId.media.confirm"),
    },
    {
      pattern: /^\/apps\/reviews\/products\/([^/]+)\/reviews\/([^/]+)\/media\/?$/,
      names: ["sku", "reviewId"],
      module: await import("../../app/routes/apps.reviews.products.$sku.reviews.$reviewId.media"),
    },
    {
      pattern: /^\/extensions\/order-status\/?$/,
      names: [],
      module: await import("../../app/routes/extensions.order-status"),
    },
    {
      pattern: /^\/extensions\/thank-you\/?$/,
      names: [],
      module: await import("../../app/routes/extensions.thank-you"),
    },
    {
      pattern: /^\/extensions\/customer-reviews\/?$/,
      names: [],
      module: await import("../../app/routes/extensions.customer-reviews"),
    },
    {
      pattern: /^\/flow\/lifecycle\/?$/,
      names: [],
      module: await import("../../app/routes/flow.lifecycle"),
    },
    {
      pattern: /^\/apps\/reviews\/orders\/?$/,
      names: [],
      module: await import("../../app/routes/apps.reviews.orders"),
    },
    {
      pattern: /^\/apps\/reviews\/rate-check\/?$/,
      names: [],
      module: await import("../../app/routes/apps.reviews.rate-check"),
    },
    {
      pattern: /^\/apps\/reviews\/store-reviews\/?$/,
      names: [],
      module: await import("../../app/routes/apps.reviews.store-reviews"),
    },
    {
      pattern: /^\/apps\/reviews\/products\/([^/]+)\/reviewed\/?$/,
      names: ["sku"],
      module: await import("../../app/routes/apps.reviews.products.$sku.reviewed"),
    },
    {
      pattern: /^\/apps\/reviews\/products\/([^/]+)\/questions\/?$/,
      names: ["sku"],
      module: await import("../../app/routes/apps.reviews.products.$sku.questions"),
    },
    {
      pattern: /^\/apps\/reviews\/products\/([^/]+)\/reviews\/?$/,
      names: ["sku"],
      module: await import("../../app/routes/apps.reviews.products.$sku.reviews"),
    },
  ];
  const route = (method: string, path: string): { fn: RouteFn; params: Record<string, string> } | null => {
    const read = method === "GET" || method === "HEAD";
    for (const r of table) {
      const m = r.pattern.exec(path);
      if (m)
        return {
          fn: (read ? r.module.loader : r.module.action) as RouteFn,
          params: Object.fromEntries(r.names.map((n, i) => [n, decodeURIComponent(m[i + 1]!)])),
        };
    }
    if (path === "/apps/reviews" || path.startsWith("/apps/reviews/")) {
      return {
        fn: (read ? rest.loader : rest.action) as unknown as RouteFn,
        params: { "*": path.slice("/apps/reviews/".length) },
      };
    }
    return null;
  };

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const started = performance.now();
    const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "127.0.0.1"}`);
    const found = route(req.method ?? "GET", url.pathname);
    if (!found) return void res.writeHead(404).end();
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers))
      if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(", ") : v);
    const body =
      chunks.length && req.method !== "GET" && req.method !== "HEAD"
        ? new Uint8Array(Buffer.concat(chunks))
        : undefined;
    let response: Response;
    try {
      response = await found.fn({
        request: new Request(url, { method: req.method, headers, body }),
        params: found.params,
        context: {},
      });
    } catch (thrown) {
      if (!(thrown instanceof Response)) throw thrown;
      response = thrown;
    }
    const out: Record<string, string> = {};
    response.headers.forEach((v, k) => (out[k] = v));
    const bytes = Buffer.from(await response.arrayBuffer());
    res.writeHead(response.status, { ...out, "content-length": String(bytes.length) }).end(bytes);
    opts.onHandled?.(performance.now() - started);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" }).end(String((e as Error).message));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
