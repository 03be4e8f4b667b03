// Accounts, the client-credentials token endpoint and Bearer-token checks of the Admin API.
//
// Choices where the spec says "not shown":
// - The token travels in `Authorization: Bearer <token>` (RFC 6750), the usual pair of a
//   client-credentials grant with `token_type: "Bearer"`.
// - The token endpoint takes JSON (the spec says every body is JSON) and, as OAuth servers do,
//   `application/x-www-form-urlencoded` too.
// - Checks run in this order: body shape (400 invalid_request), grant_type (400
//   unsupported_grant_type), credentials (401 invalid_client), audience (400 invalid_audience). The
//   audience must equal {base_url} exactly. Error bodies carry `error` and `message`, plus the OAuth
//   `error_description` with the same text.
// - Tokens are opaque random strings bound to the account's customer; they are not JWTs, so a
//   client cannot (and must not) read anything out of them.
import { timingSafeEqual } from "node:crypto";
import { z } from "zod";
import type { Clock } from "./clock";
import { HttpError, json, type Reply } from "./http";
import { randomToken } from "./ids";

export interface EmulatorAccount {
  customer: string;
  clientId: string;
  clientSecret: string;
}

export interface IssuedToken {
  token: string;
  customer: string;
  clientId: string;
  issuedAt: number;
  expiresAt: number;
}

export const accountSchema = z.object({
  customer: z.string().min(1),
  clientId: z.string().min(1),
  clientSecret: z.string().min(1),
});

const tokenRequestSchema = z.object({
  audience: z.string({ error: "audience is required" }),
  grant_type: z.string({ error: "grant_type is required" }),
  client_id: z.string({ error: "client_id is required" }),
  client_secret: z.string({ error: "client_secret is required" }),
});

function oauthError(status: number, label: string, message: string): HttpError {
  return new HttpError(status, label, message, { error_description: message });
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export class AuthService {
  private readonly accountsById = new Map<string, EmulatorAccount>();
  private readonly tokens = new Map<string, IssuedToken>();

  constructor(
    private readonly clock: Clock,
    private readonly ttlSeconds: number,
    accounts: EmulatorAccount[],
  ) {
    for (const a of accounts) this.addAccount(a);
  }

  addAccount(account: EmulatorAccount): void {
    this.accountsById.set(account.clientId, { ...account });
  }

  accounts(): EmulatorAccount[] {
    return [...this.accountsById.values()].map((a) => ({ ...a }));
  }

  customers(): Set<string> {
    return new Set([...this.accountsById.values()].map((a) => a.customer));
  }

  /** `POST {auth_url}/oauth/token`. */
  issue(body: unknown, baseUrl: string): Reply {
    const parsed = tokenRequestSchema.safeParse(body ?? {});
    if (!parsed.success) {
      throw oauthError(400, "invalid_request", parsed.error.issues.map((i) => i.message).join("; "));
    }
    const req = parsed.data;
    if (req.grant_type !== "client_credentials") {
      throw oauthError(400, "unsupported_grant_type", "grant_type must be client_credentials");
    }
    const account = this.accountsById.get(req.client_id);
    if (!account || !sameSecret(account.clientSecret, req.client_secret)) {
      throw oauthError(401, "invalid_client", "unknown client_id or wrong client_secret");
    }
    if (req.audience !== baseUrl) {
      throw oauthError(400, "invalid_audience", `audience must be ${baseUrl}`);
    }
    this.pruneExpired();
    const now = this.clock.now();
    const token: IssuedToken = {
      token: randomToken(),
      customer: account.customer,
      clientId: account.clientId,
      issuedAt: now,
      expiresAt: now + this.ttlSeconds * 1000,
    };
    this.tokens.set(token.token, token);
    return json(200, { access_token: token.token, expires_in: this.ttlSeconds, token_type: "Bearer" });
  }

  /** Throws the 401/403 of the Admin API, or returns the token's customer. */
  authorize(authorization: string | undefined, customer: string): string {
    const challenge = (code: string) => ({ "WWW-Authenticate": `Bearer error="${code}"` });
    const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
    if (!m) throw new HttpError(401, "unauthorized", "missing Bearer access token", {}, challenge("invalid_request"));
    const token = this.tokens.get(m[1]);
    if (!token) throw new HttpError(401, "unauthorized", "invalid access token", {}, challenge("invalid_token"));
    if (this.clock.now() >= token.expiresAt) {
      throw new HttpError(401, "unauthorized", "access token expired", {}, challenge("invalid_token"));
    }
    if (token.customer !== customer) {
      throw new HttpError(403, "forbidden", `token has no permission for customer ${customer}`);
    }
    return token.customer;
  }

  /** Fault `expireTokensNow`: every token issued so far is expired; new ones are fine. */
  expireAll(): void {
    const now = this.clock.now();
    for (const t of this.tokens.values()) t.expiresAt = Math.min(t.expiresAt, now);
  }

  clearTokens(): void {
    this.tokens.clear();
  }

  snapshot(): { accounts: EmulatorAccount[]; tokens: IssuedToken[] } {
    return { accounts: this.accounts(), tokens: [...this.tokens.values()].map((t) => ({ ...t })) };
  }

  restore(data: { accounts?: EmulatorAccount[]; tokens?: IssuedToken[] }): void {
    for (const a of data.accounts ?? []) this.addAccount(a);
    for (const t of data.tokens ?? []) this.tokens.set(t.token, { ...t });
  }

  private pruneExpired(): void {
    if (this.tokens.size < 1000) return;
    const now = this.clock.now();
    for (const [k, t] of this.tokens) if (t.expiresAt <= now) this.tokens.delete(k);
  }
}
