import { request as httpRequest, Agent, type IncomingMessage } from "node:http";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Socket } from "node:net";
import express from "express";
import { createRequire } from "node:module";
import type { Request as ExpressRequest, Response as ExpressResponse } from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DRAIN_MAX_BYTES, json, readBody } from "./write-request.server";

// A shopper's write body over the limit, through the same HTTP stack as production (express and
// Remix's adapter, which turns the Node request into a Fetch Request): a 413 whatever the transfer
// encoding, and the connection then carries the next request.

// The adapter's own two halves, as its createRequestHandler runs them in production (server/http-app.ts);
// its package entry exports only the handler, which needs a whole Remix build.
const adapter = createRequire(import.meta.url)("@remix-run/express/dist/server.js") as {
  createRemixRequest(req: ExpressRequest, res: ExpressResponse): Request;
  sendRemixResponse(res: ExpressResponse, response: Response): Promise<void>;
};
const { createRemixRequest, sendRemixResponse } = adapter;

const LIMIT = 1024;
let server: Server;
let origin: string;
const connections: Socket[] = [];

beforeAll(async () => {
  const app = express();
  app.post("/write", (req, res, next) => {
    const request = createRemixRequest(req, res);
    readBody(request, LIMIT)
      .then(
        (text) => json(200, { bytes: Buffer.byteLength(text) }),
        (answer: unknown) => (answer instanceof Response ? answer : Promise.reject(answer)),
      )
      .then((response) => sendRemixResponse(res, response))
      .catch(next);
  });
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  server.on("connection", (socket) => connections.push(socket));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

interface Answer {
  status: number;
  body: string;
  headers: IncomingMessage["headers"];
  socket: Socket;
}

/** A POST whose body is written in `chunks` pieces of `size` bytes; chunked unless `length` is declared. */
function post(agent: Agent, body: { chunks: number; size: number; length?: number }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (body.length !== undefined) headers["content-length"] = String(body.length);
    const req = httpRequest(`${origin}/write`, { method: "POST", agent, headers }, (res) => {
      const parts: Buffer[] = [];
      res.on("data", (c: Buffer) => parts.push(c));
      res.on("end", () =>
        resolve({
          status: res.statusCode!,
          body: Buffer.concat(parts).toString("utf8"),
          headers: res.headers,
          socket: req.socket as Socket,
        }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    const piece = Buffer.alloc(body.size, 0x20);
    let i = 0;
    const write = () => {
      while (i < body.chunks) {
        i++;
        if (!req.write(piece)) return void req.once("drain", write);
      }
      req.end();
    };
    write();
  });
}

describe("a write body over the limit", () => {
  it("GIVEN a chunked body over the limit (no Content-Length) THEN the answer is 413 too_large and the same connection answers the next request", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const before = connections.length;
    const first = await post(agent, { chunks: 8, size: 1024 });
    expect(first.status).toBe(413);
    expect(JSON.parse(first.body)).toEqual({ error: "too_large" });
    expect(first.headers["transfer-encoding"] ?? first.headers["content-length"]).toBeTruthy();
    expect(first.headers.connection).toBe("keep-alive");
    const second = await post(agent, { chunks: 1, size: 100 });
    expect(second.status).toBe(200);
    expect(JSON.parse(second.body)).toEqual({ bytes: 100 });
    expect(second.socket).toBe(first.socket);
    expect(connections.length - before).toBe(1);
    agent.destroy();
  });

  it("GIVEN a declared Content-Length over the limit THEN the answer is 413 and the connection carries the next request", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const before = connections.length;
    const first = await post(agent, { chunks: 4, size: 1024, length: 4096 });
    expect(first.status).toBe(413);
    expect(JSON.parse(first.body)).toEqual({ error: "too_large" });
    const second = await post(agent, { chunks: 1, size: 10 });
    expect(second.status).toBe(200);
    expect(second.socket).toBe(first.socket);
    expect(connections.length - before).toBe(1);
    agent.destroy();
  });

  it("GIVEN a body within the limit THEN it is read whole", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const answer = await post(agent, { chunks: 4, size: 256 });
    expect(answer.status, answer.body).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ bytes: LIMIT });
    agent.destroy();
  });

  it("GIVEN a chunked body past what is worth reading THEN the answer is still 413, and the server closes that connection after it", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const answer = await post(agent, { chunks: Math.ceil((DRAIN_MAX_BYTES * 2) / 65536), size: 65536 });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ error: "too_large" });
    expect(answer.headers.connection).toBe("close");
    agent.destroy();
  });
});
