// The reviews-service emulator: one node:http server that plays the Admin API, the Client API, the
// token host, the rating page and the upload storage, plus a control API for tests.
//
//   {base_url} = `${origin}/api`    Admin and Client API
//   {auth_url} = `${origin}/auth`   token at `${authUrl}/oauth/token`
//   {rate_url} = origin             rating page at `/rate/{customer}/{verificationTokenId}/{orderId}`
//   uploads    = `${origin}/uploads/{fileKey}` (presigned PUT target)
//   control    = `${origin}/__emulator/...` (see control.ts)
//
// Request pipeline: log entry → body (capped; 413 past 10 MB on /api and /auth) → faults → route
// (404/405) → Admin token check (401/403) → JSON parse (400 invalid_json) → handler. CORS headers are
// sent on Client API and upload routes only: the Admin API is server-to-server and a browser must
// not be able to call it.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { AuthService, type EmulatorAccount } from "./auth";
import { catalogRoutes } from "./catalog";
import { MAX_BODY_BYTES } from "./catalog.rules";
import { clientOrderRoutes } from "./client-orders";
import { ratingRoutes } from "./client-ratings";
import { clientReviewRoutes, MAX_VIDEO_BYTES } from "./client-reviews";
import { storeRoutes } from "./client-store";
import { Clock } from "./clock";
import { controlRoutes, createControl, type EmulatorControl } from "./control";
import { Faults } from "./faults";
import { groupRoutes } from "./groups";
import { DISCARD_CAP, discardRest, HttpError, json, readBody, type Reply } from "./http";
import { randomToken } from "./ids";
import { npsRoutes } from "./nps";
import { orderRoutes } from "./orders";
import { questionRoutes } from "./questions";
import { ratePageRoutes } from "./rate-page";
import { reportRoutes } from "./report";
import { logHeaders, queryObject, redact, RequestLog, type RequestLogEntry } from "./request-log";
import { ADMIN_PAGE_SIZE, reviewAdminRoutes } from "./reviews";
import { Router, type Route } from "./router";
import type { SeedOptions } from "./seed";
import type { EmulatorUrls, Services } from "./services";
import { Store } from "./store";
import { strictReply } from "./strict";
import { uploadRoutes } from "./uploads";

export type { EmulatorAccount } from "./auth";
export type { EmulatorControl } from "./control";
export type { FaultConfig } from "./faults";
export type { RequestLogEntry } from "./request-log";
export type { SeedOptions, SeedSummary } from "./seed";

export interface EmulatorLogger {
  info(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface EmulatorOptions {
  /** 0 = a free port (default). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default: demo-store / demo-client / demo-secret. */
  accounts?: EmulatorAccount[];
  /** Default 86400 (the spec's sample). */
  tokenTtlSeconds?: number;
  /** JSON file: loaded at start, written (debounced) after each mutation and on close. */
  dataFile?: string;
  /** One line per request (method, path, status, duration; never bodies or headers). */
  logRequests?: boolean;
  /** Where request lines and internal errors go (pino-compatible); default stdout/stderr. */
  logger?: EmulatorLogger;
  /** Load the deterministic demo data at start (`true` = default customer and product count). */
  seed?: boolean | SeedOptions;
  /** Answers carry only the fields the spec documents (strict.ts). Default: `EMULATOR_STRICT=1`. */
  strict?: boolean;
  /** Page size of the admin listings (reviews, questions, survey responses); default 50. */
  adminPageSize?: number;
}

export interface Emulator {
  /** Answers cut to the documented fields (strict.ts). */
  strict: boolean;
  origin: string;
  baseUrl: string;
  authUrl: string;
  rateUrl: string;
  close(): Promise<void>;
  control: EmulatorControl;
}

export const DEFAULT_ACCOUNT: EmulatorAccount = {
  customer: "demo-store",
  clientId: "demo-client",
  clientSecret: "demo-secret",
};

const UPLOAD_LIMIT = MAX_VIDEO_BYTES + 1024 * 1024;

function consoleLogger(): EmulatorLogger {
  return {
    info: (obj, msg) => process.stdout.write(`${msg ?? ""} ${JSON.stringify(obj)}\n`),
    error: (obj, msg) => process.stderr.write(`${msg ?? ""} ${JSON.stringify(obj)}\n`),
  };
}

function parseLoggedBody(bytes: Buffer, contentType: string): unknown {
  if (bytes.length === 0 || bytes.length > 1024 * 1024) return null;
  const text = bytes.toString("utf8");
  if (contentType.includes("application/x-www-form-urlencoded")) {
    return redact(Object.fromEntries(new URLSearchParams(text)));
  }
  try {
    return redact(JSON.parse(text));
  } catch {
    return null;
  }
}

function corsHeaders(allow: string): Record<string, string> {
  return {
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Allow-Methods": allow,
    "Access-Control-Allow-Headers": "Content-Type",
    "Access-Control-Expose-Headers": "ETag, Retry-After",
    "Access-Control-Max-Age": "600",
  };
}

function writeReply(res: ServerResponse, reply: Reply, extra: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const headers: Record<string, string> = { ...extra, ...(reply.headers ?? {}) };
  let payload: Buffer;
  if ("json" in reply) {
    payload = Buffer.from(JSON.stringify(reply.json));
    headers["Content-Type"] = "application/json; charset=utf-8";
  } else if ("html" in reply) {
    payload = Buffer.from(reply.html);
    headers["Content-Type"] = "text/html; charset=utf-8";
  } else if ("bytes" in reply) {
    payload = reply.bytes;
    headers["Content-Type"] = reply.contentType;
  } else {
    payload = Buffer.alloc(0);
  }
  headers["Content-Length"] = String(payload.length);
  res.writeHead(reply.status, headers);
  res.end(payload);
}

export async function startEmulator(opts: EmulatorOptions = {}): Promise<Emulator> {
  const host = opts.host ?? "127.0.0.1";
  const clock = new Clock();
  const store = new Store(opts.dataFile);
  const auth = new AuthService(clock, opts.tokenTtlSeconds ?? 86_400, opts.accounts ?? [DEFAULT_ACCOUNT]);
  const saved = store.load() as Parameters<AuthService["restore"]>[0] | undefined;
  if (saved) auth.restore(saved);
  store.persistExtra(() => auth.snapshot());
  const faults = new Faults();
  const log = new RequestLog();
  const logger = opts.logger ?? consoleLogger();
  // Filled once the port is known; every module reads URLs through this object.
  const urls: EmulatorUrls = { origin: "", baseUrl: "", authUrl: "", rateUrl: "" };
  const strict = opts.strict ?? process.env.EMULATOR_STRICT === "1";
  const adminPageSize = opts.adminPageSize ?? ADMIN_PAGE_SIZE;
  if (!Number.isInteger(adminPageSize) || adminPageSize < 1)
    throw new Error(`adminPageSize must be a positive integer, got ${adminPageSize}`);
  const services: Services = { store, auth, clock, urls, uploadSecret: randomToken(), adminPageSize };
  const control = createControl({ store, auth, clock, faults, log, urls });

  const tokenRoute: Route<Services> = {
    method: "POST",
    pattern: "/auth/oauth/token",
    auth: "none",
    handler: (ctx) => auth.issue(ctx.body, urls.baseUrl),
  };
  const router = new Router<Services>().add(
    tokenRoute,
    ...catalogRoutes,
    ...orderRoutes,
    ...reviewAdminRoutes,
    ...questionRoutes,
    ...npsRoutes,
    ...reportRoutes,
    ...groupRoutes,
    ...ratingRoutes,
    ...clientReviewRoutes,
    ...storeRoutes,
    ...clientOrderRoutes,
    ...uploadRoutes,
    ...ratePageRoutes,
    ...controlRoutes(control, urls),
  );

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const method = (req.method ?? "GET").toUpperCase();
    const url = new URL(req.url ?? "/", urls.origin || "http://localhost");
    const path = url.pathname;
    const isControl = path === "/__emulator" || path.startsWith("/__emulator/");
    const entry: RequestLogEntry | undefined = isControl
      ? undefined
      : log.start({
          method,
          path,
          query: queryObject(url.searchParams),
          body: null,
          at: clock.iso(),
          headers: logHeaders(req.headers),
        });
    let cors: Record<string, string> = {};
    let loseAnswer = false;
    const send = (reply: Reply, fault?: string) => {
      if (loseAnswer) {
        if (entry) {
          entry.status = 0;
          entry.fault = "lose-answer";
        }
        req.socket.destroy();
        return;
      }
      if (entry) {
        entry.status = reply.status;
        entry.durationMs = Math.round(performance.now() - started);
        if (fault) entry.fault = fault;
      }
      writeReply(res, reply, cors);
      if (opts.logRequests && !isControl) {
        logger.info(
          { method, path, status: reply.status, ms: Math.round(performance.now() - started) },
          "emulator request",
        );
      }
    };

    // Body: capped so that an oversized request costs no memory. A declared oversize is answered
    // at once and the connection closed, like a front proxy does; an undeclared one (chunked) is
    // counted while reading and answered as soon as it passes the limit.
    const limit = path.startsWith("/uploads/") ? UPLOAD_LIMIT : MAX_BODY_BYTES;
    const tooLarge = () => json(413, { error: "payload_too_large", message: `request body over ${limit} bytes` });
    const declared = Number(req.headers["content-length"] ?? 0);
    if (declared > limit) {
      // Answered once the body has been read and thrown away: answering first and closing makes
      // many clients see a reset connection instead of the 413 (the upload is still going).
      discardRest(req, DISCARD_CAP, () => send(tooLarge()));
      return;
    }
    const body = await readBody(req, limit);
    if (!body.ok) {
      send(tooLarge());
      return;
    }
    const contentType = String(req.headers["content-type"] ?? "").toLowerCase();
    if (entry && !path.startsWith("/uploads/"))
      log.setBody(entry, parseLoggedBody(body.bytes, contentType), body.bytes.length);

    if (!isControl) {
      const latency = faults.latencyFor(path);
      if (latency > 0) await new Promise((r) => setTimeout(r, latency));
      const outcome = faults.decide(path);
      if (outcome?.kind === "drop") {
        if (entry) {
          entry.status = 0;
          entry.fault = "drop";
        }
        req.socket.destroy();
        return;
      }
      if (outcome?.kind === "reply") {
        send(outcome.reply, outcome.fault);
        return;
      }
      loseAnswer = faults.loseAnswer(path);
    }

    const match = router.match(method, path);
    if (method === "OPTIONS") {
      // CORS preflight: only routes meant for browsers get the allow headers.
      if (match.kind === "method") {
        const allow = match.allow.join(", ");
        if (match.cors) cors = corsHeaders(allow);
        send({ status: 204, empty: true, headers: { Allow: allow } });
      } else {
        send(new HttpError(404, "not_found", `no route for ${path}`).toReply());
      }
      return;
    }
    if (match.kind === "none") {
      send(new HttpError(404, "not_found", `no route for ${method} ${path}`).toReply());
      return;
    }
    if (match.kind === "method") {
      const allow = match.allow.join(", ");
      if (match.cors) cors = corsHeaders(allow);
      send(
        new HttpError(405, "method_not_allowed", `${method} is not allowed on ${path}`, {}, { Allow: allow }).toReply(),
      );
      return;
    }

    const route = match.route;
    if (route.cors) cors = corsHeaders(route.method);
    try {
      if (route.auth === "admin") auth.authorize(req.headers.authorization, match.params.customer);
      let parsed: unknown;
      if (route.body !== "raw" && body.bytes.length > 0) {
        const text = body.bytes.toString("utf8");
        if (route === tokenRoute && contentType.includes("application/x-www-form-urlencoded")) {
          parsed = Object.fromEntries(new URLSearchParams(text));
        } else {
          try {
            parsed = JSON.parse(text);
          } catch {
            throw new HttpError(400, "invalid_json", "request body is not valid JSON");
          }
        }
      }
      const reply = await route.handler({
        method,
        path,
        params: match.params,
        query: url.searchParams,
        body: parsed,
        rawBody: body.bytes,
        headers: req.headers,
        services,
      });
      send(strict ? strictReply(route, reply) : reply);
    } catch (err) {
      if (err instanceof HttpError) {
        send(err.toReply());
        return;
      }
      logger.error({ method, path, err: err instanceof Error ? err.stack : String(err) }, "emulator handler failed");
      send(json(500, { error: "internal_error", message: "unexpected error in the emulator" }));
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err) => {
      logger.error({ err: err instanceof Error ? err.message : String(err) }, "emulator request failed");
      if (!res.headersSent && !res.destroyed)
        writeReply(res, json(500, { error: "internal_error", message: "request failed" }));
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 5_000;

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const hostPart = host.includes(":") ? `[${host}]` : host;
  urls.origin = `http://${hostPart}:${port}`;
  urls.baseUrl = `${urls.origin}/api`;
  urls.authUrl = `${urls.origin}/auth`;
  urls.rateUrl = urls.origin;

  if (opts.seed) control.seed(opts.seed === true ? {} : opts.seed);

  let closing: Promise<void> | undefined;
  return {
    ...urls,
    strict,
    control,
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        store.flush();
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
