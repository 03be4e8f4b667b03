// Fault injection for resilience tests and demos: latency, 5xx answers, 429s with Retry-After,
// dropped connections, scripted failures and token expiry.
//
// Shares (`errorRate`, `dropRate`) are deterministic: the Nth matching request is hit when
// floor(N·rate) grows, so 0.5 hits every second request and 0.25 every fourth. Faults apply only to
// paths matching `paths` (a regex; default `^/(api|auth)(/|$)`, the two service hosts) and never to
// `/__emulator`. Precedence when several apply to one request: dropNext, dropRate, failNext,
// rateLimit.count, rateLimit.every, errorRate; latency is added before any of them.
// `expireTokensNow` is an action, not a standing fault: tokens issued so far expire at once and
// tokens issued afterwards are fine.
import { z } from "zod";
import { json, type Reply } from "./http";

export const faultConfigSchema = z.strictObject({
  latencyMs: z.number().int().min(0).max(120_000).optional(),
  errorRate: z.number().min(0).max(1).optional(),
  errorStatus: z.union([z.literal(500), z.literal(503)]).optional(),
  rateLimit: z
    .strictObject({
      every: z.number().int().min(1).optional(),
      count: z.number().int().min(0).optional(),
      retryAfterSeconds: z.number().min(0),
    })
    .optional(),
  dropRate: z.number().min(0).max(1).optional(),
  dropNext: z.number().int().min(0).optional(),
  // The next N matching requests are handled (their effect is stored) but the connection is closed
  // instead of answering: the answer lost after the work was done, which a client sees as a drop.
  loseAnswerNext: z.number().int().min(0).optional(),
  expireTokensNow: z.boolean().optional(),
  failNext: z.strictObject({ count: z.number().int().min(0), status: z.number().int().min(400).max(599) }).optional(),
  paths: z
    .string()
    .refine((s) => {
      try {
        new RegExp(s);
        return true;
      } catch {
        return false;
      }
    }, "paths must be a valid regular expression")
    .optional(),
});

export type FaultConfig = z.infer<typeof faultConfigSchema>;

export type FaultOutcome = { kind: "drop" } | { kind: "reply"; reply: Reply; fault: string } | null;

const DEFAULT_PATHS = /^\/(api|auth)(\/|$)/;

const LABELS: Record<number, string> = {
  400: "invalid_request",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  409: "conflict",
  429: "rate_limited",
  500: "internal_error",
  502: "bad_gateway",
  503: "service_unavailable",
  504: "gateway_timeout",
};

export function statusLabel(status: number): string {
  return LABELS[status] ?? "error";
}

/** True when the Nth event (1-based) falls on a hit for this share. */
export function shareHit(n: number, rate: number): boolean {
  if (rate <= 0) return false;
  if (rate >= 1) return true;
  return Math.floor(n * rate + 1e-9) > Math.floor((n - 1) * rate + 1e-9);
}

export class Faults {
  private config: FaultConfig = {};
  private regex: RegExp = DEFAULT_PATHS;
  private seen = 0;
  private dropLeft = 0;
  private loseLeft = 0;
  private failLeft = 0;
  private limitLeft = 0;

  set(config: FaultConfig): void {
    this.config = structuredClone(config);
    delete this.config.expireTokensNow;
    this.regex = config.paths ? new RegExp(config.paths) : DEFAULT_PATHS;
    this.seen = 0;
    this.dropLeft = config.dropNext ?? 0;
    this.loseLeft = config.loseAnswerNext ?? 0;
    this.failLeft = config.failNext?.count ?? 0;
    this.limitLeft = config.rateLimit?.count ?? 0;
  }

  clear(): void {
    this.set({});
  }

  /** The configuration and what is left of the counted faults. */
  get(): FaultConfig & {
    remaining: { dropNext: number; loseAnswerNext: number; failNext: number; rateLimit: number };
    seen: number;
  } {
    return {
      ...structuredClone(this.config),
      remaining: {
        dropNext: this.dropLeft,
        loseAnswerNext: this.loseLeft,
        failNext: this.failLeft,
        rateLimit: this.limitLeft,
      },
      seen: this.seen,
    };
  }

  appliesTo(path: string): boolean {
    if (path === "/__emulator" || path.startsWith("/__emulator/")) return false;
    return this.regex.test(path);
  }

  latencyFor(path: string): number {
    return this.appliesTo(path) ? (this.config.latencyMs ?? 0) : 0;
  }

  /** True when this request's answer is to be lost after it was handled (loseAnswerNext). */
  loseAnswer(path: string): boolean {
    if (!this.appliesTo(path) || this.loseLeft === 0) return false;
    this.loseLeft--;
    return true;
  }

  /** Called once per request that reached the service (after the body was read). */
  decide(path: string): FaultOutcome {
    if (!this.appliesTo(path)) return null;
    const c = this.config;
    const n = ++this.seen;
    if (this.dropLeft > 0) {
      this.dropLeft--;
      return { kind: "drop" };
    }
    if (c.dropRate !== undefined && shareHit(n, c.dropRate)) return { kind: "drop" };
    if (this.failLeft > 0 && c.failNext) {
      this.failLeft--;
      const status = c.failNext.status;
      const headers: Record<string, string> = status === 429 ? { "Retry-After": "1" } : {};
      return {
        kind: "reply",
        fault: "failNext",
        reply: json(status, { error: statusLabel(status), message: "injected failure" }, headers),
      };
    }
    if (c.rateLimit) {
      const limited = this.limitLeft > 0 || (c.rateLimit.every !== undefined && n % c.rateLimit.every === 0);
      if (this.limitLeft > 0) this.limitLeft--;
      if (limited) {
        return {
          kind: "reply",
          fault: "rateLimit",
          reply: json(
            429,
            { error: "rate_limited", message: "too many requests" },
            { "Retry-After": String(Math.ceil(c.rateLimit.retryAfterSeconds)) },
          ),
        };
      }
    }
    if (c.errorRate !== undefined && shareHit(n, c.errorRate)) {
      const status = c.errorStatus ?? 500;
      return {
        kind: "reply",
        fault: "errorRate",
        reply: json(status, { error: statusLabel(status), message: "injected fault" }),
      };
    }
    return null;
  }
}
