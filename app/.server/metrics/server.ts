import { createServer, type Server } from "node:http";
import { timingSafeEqual } from "node:crypto";
import type { Logger } from "pino";
import { metrics } from "./metrics";

// The scrape endpoint: GET /metrics on a port of its own (never the app's public port), with an
// optional bearer token (METRICS_TOKEN) for when that port is reachable by more than Prometheus.

export interface MetricsServer {
  server: Server;
  port: number;
  close(): Promise<void>;
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.replace(/^Bearer\s+/i, "") ?? "");
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

export async function startMetricsServer(options: {
  port: number;
  host: string;
  token?: string;
  log: Logger;
}): Promise<MetricsServer> {
  const server = createServer((req, res) => {
    if (req.method !== "GET" || (req.url ?? "").split("?")[0] !== "/metrics") {
      res.writeHead(404).end();
      return;
    }
    if (options.token && !tokenMatches(req.headers.authorization, options.token)) {
      res.writeHead(401, { "WWW-Authenticate": 'Bearer realm="metrics"' }).end();
      return;
    }
    const { registry } = metrics();
    registry.metrics().then(
      (text) => res.writeHead(200, { "Content-Type": registry.contentType, "Cache-Control": "no-store" }).end(text),
      (e: Error) => {
        options.log.warn({ err: e.message }, "metrics not collected");
        res.writeHead(500).end();
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  options.log.info({ port, token: Boolean(options.token) }, "metrics listening");
  return {
    server,
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
