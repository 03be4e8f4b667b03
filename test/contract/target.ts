import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import {
  type ReviewsAccount,
  type ReviewsError,
  createReviewsClient,
  memoryTokenCache,
} from "../../app/.server/reviews";

// What the contract suite runs against: a fresh emulator per test file (default), or any other
// implementation of the service named by CONTRACT_* variables (see README.md). Tests that need the
// emulator's /__emulator control endpoints are only DEFINED when `EMULATED` is true.

export const EXTERNAL = Boolean(process.env.CONTRACT_API_URL);
export const EMULATED = !EXTERNAL;

/** Unique per process, so two runs against the same service never collide. */
export const RUN = `${Date.now().toString(36)}${randomBytes(3).toString("hex")}`;
let counter = 0;
/** A value no other run or test uses: `ct-<run>-<n>-<label>`. */
export function uid(label: string): string {
  counter += 1;
  return `ct-${RUN}-${counter}-${label}`;
}

export interface FaultSpec {
  latencyMs?: number;
  errorRate?: number;
  errorStatus?: number;
  rateLimit?: { every?: number; count?: number; retryAfterSeconds: number };
  dropRate?: number;
  dropNext?: number;
  expireTokensNow?: boolean;
  failNext?: { count: number; status: number };
  /** A regular expression on the request path; default: the /api and /auth paths. */
  paths?: string;
}

export interface LoggedRequest {
  seq: number;
  method: string;
  path: string;
  query?: unknown;
  status: number | null;
  body?: unknown;
  at?: string | number;
}

/** The emulator's control API over HTTP (no auth). */
export class EmulatorControl {
  constructor(readonly origin: string) {}

  private async call(method: string, path: string, body?: unknown): Promise<unknown> {
    const res = await fetch(`${this.origin}/__emulator/${path}`, {
      method,
      headers: body === undefined ? undefined : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`emulator control ${method} ${path} → ${res.status} ${text}`);
    return text ? (JSON.parse(text) as unknown) : null;
  }

  faults(spec: FaultSpec) {
    return this.call("POST", "faults", spec);
  }
  clearFaults() {
    return this.call("DELETE", "faults");
  }
  async requests(since = 0): Promise<LoggedRequest[]> {
    const r = (await this.call("GET", `requests?since=${since}`)) as { requests: LoggedRequest[] };
    return r.requests;
  }
  /** Highest sequence number logged so far (0 when none): pass it to `requests()` later. */
  async mark(): Promise<number> {
    const all = await this.requests(0);
    return all.reduce((m, r) => Math.max(m, r.seq), 0);
  }
  clearRequests() {
    return this.call("DELETE", "requests");
  }
  state(customer: string): Promise<unknown> {
    return this.call("GET", `state?customer=${encodeURIComponent(customer)}`);
  }
  seed(body: unknown) {
    return this.call("POST", "seed", body);
  }
  addAccount(account: { customer: string; clientId: string; clientSecret: string }) {
    return this.call("POST", "accounts", account);
  }
  /** Store reply + publication of a question (the spec has no API for it). */
  answerQuestion(questionId: string, text: string) {
    return this.call("POST", `questions/${encodeURIComponent(questionId)}/answer`, { text });
  }
}

export interface ContractTarget {
  account: ReviewsAccount;
  /** null when running against an external implementation. */
  control: EmulatorControl | null;
  close(): Promise<void>;
}

function required(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name} must be set when CONTRACT_API_URL is set (see test/contract/README.md)`);
  return v;
}

export async function openTarget(options: { tokenTtlSeconds?: number } = {}): Promise<ContractTarget> {
  if (EXTERNAL) {
    return {
      account: {
        apiUrl: required("CONTRACT_API_URL"),
        authUrl: required("CONTRACT_AUTH_URL"),
        rateUrl: required("CONTRACT_RATE_URL"),
        customer: required("CONTRACT_CUSTOMER"),
        clientId: required("CONTRACT_CLIENT_ID"),
        clientSecret: required("CONTRACT_CLIENT_SECRET"),
      },
      control: null,
      close: async () => {},
    };
  }
  // Imported lazily: an external run does not need the emulator's code at all.
  const { startEmulator } = await import("../../sandbox/emulator/server");
  const credentials = {
    customer: `shop-${RUN}`,
    clientId: `client-${RUN}`,
    clientSecret: `secret-${randomBytes(12).toString("hex")}`,
  };
  const emu = await startEmulator({
    port: 0,
    accounts: [credentials],
    tokenTtlSeconds: options.tokenTtlSeconds ?? 3600,
  });
  const control = new EmulatorControl(emu.origin);
  // Demo data (store reviews, NPS answers, attributes, top rated) so that dashboard-managed content
  // is not empty; every test still creates the records it asserts on.
  await control.seed({ customer: credentials.customer });
  return {
    account: { ...credentials, apiUrl: emu.baseUrl, authUrl: emu.authUrl, rateUrl: emu.rateUrl },
    control,
    close: () => emu.close(),
  };
}

/** A client of the target with a private token cache. */
export function clientFor(account: ReviewsAccount, options: Partial<Parameters<typeof createReviewsClient>[0]> = {}) {
  return createReviewsClient({ account, tokenCache: memoryTokenCache(), ...options });
}

/** Bounded poll for eventually-consistent services: re-runs `probe` until `done` or the deadline. */
export async function eventually<T>(probe: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 5_000): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  let delay = 20;
  for (;;) {
    const v = await probe();
    if (done(v) || performance.now() > deadline) return v;
    await sleep(delay);
    delay = Math.min(delay * 2, 500);
  }
}

/** The error a call fails with; the test fails if the call succeeds. */
export async function failure(p: Promise<unknown>): Promise<ReviewsError> {
  try {
    await p;
  } catch (e) {
    return e as ReviewsError;
  }
  throw new Error("expected the call to fail");
}
