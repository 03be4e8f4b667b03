import { type IncomingHttpHeaders, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";

// A real HTTP server on 127.0.0.1:0 for the client's unit tests: each test scripts the answers, the
// client talks to it through the real global fetch. Test-only (imported by *.test.ts files).

export interface StubRequest {
  method: string;
  /** Raw path and query as sent on the wire (percent-encoding preserved). */
  url: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
}

export type StubAnswer =
  | { status: number; json?: unknown; text?: string; headers?: Record<string, string> }
  /** Never answer: the client must time out. */
  | "hang"
  /** Destroy the socket without a response. */
  | "drop";

export type StubHandler = (req: StubRequest) => StubAnswer | Promise<StubAnswer>;

export interface Stub {
  origin: string;
  requests: StubRequest[];
  /** Requests whose path starts with `prefix`. */
  count(prefix: string): number;
  close(): Promise<void>;
}

export async function startStub(handler: StubHandler): Promise<Stub> {
  const requests: StubRequest[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = req.url ?? "/";
      const q = url.indexOf("?");
      const r: StubRequest = {
        method: req.method ?? "GET",
        url,
        path: q >= 0 ? url.slice(0, q) : url,
        query: new URLSearchParams(q >= 0 ? url.slice(q + 1) : ""),
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      requests.push(r);
      Promise.resolve(handler(r)).then(
        (answer) => {
          if (answer === "hang") {
            hanging.add(res);
            return;
          }
          if (answer === "drop") {
            req.socket.destroy();
            return;
          }
          const headers: Record<string, string> = { ...answer.headers };
          let body = "";
          if (answer.json !== undefined) {
            headers["content-type"] ??= "application/json";
            body = JSON.stringify(answer.json);
          } else if (answer.text !== undefined) {
            body = answer.text;
          }
          res.writeHead(answer.status, headers).end(body);
        },
        (e: unknown) => res.writeHead(500).end(String(e)),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    count: (prefix) => requests.filter((r) => r.path.startsWith(prefix)).length,
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Token endpoint behaviour shared by the tests: numbered tokens, configurable lifetime. */
export function tokenIssuer(options: { expiresIn?: number; delayMs?: number } = {}) {
  let issued = 0;
  return {
    get issued() {
      return issued;
    },
    current: () => `token-${issued}`,
    async answer(): Promise<StubAnswer> {
      if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
      issued += 1;
      return {
        status: 200,
        json: { access_token: `token-${issued}`, expires_in: options.expiresIn ?? 3600, token_type: "Bearer" },
      };
    },
  };
}

/** A logger that keeps every line, to assert what was (and was not) logged. */
export function memoryLogger() {
  const lines: { level: string; obj: object; msg?: string }[] = [];
  const at = (level: string) => (obj: object, msg?: string) => {
    lines.push({ level, obj, msg });
  };
  return { lines, logger: { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") } };
}
