import { z } from "zod";
import { ShopifyPermanentError, ShopifyReauthRequiredError, ShopifyRetryableError } from "./errors";
import { accessTokenUrl, shopOrigin } from "./shop-origin";

// The two calls the app makes to a shop's token endpoint outside a merchant's request (the library
// makes its own inside one, always at https://{shop}): refreshing an expiring offline token, and the
// migration exchange of a non-expiring one. Answers become a pair or an error saying what to do: a
// lost answer (network, timeout, 5xx) is retryable with the same refresh token or original token,
// which Shopify keeps usable for exactly that; a refused grant needs the merchant.

export interface TokenPair {
  accessToken: string;
  expires: Date;
  refreshToken: string;
  refreshTokenExpires: Date | null;
  scope: string | null;
}

export interface TokenEndpoint {
  refresh(shop: string, refreshToken: string): Promise<TokenPair>;
  /** Trades a non-expiring offline token for an expiring pair (no user session needed). */
  migrate(shop: string, nonExpiringToken: string): Promise<TokenPair>;
}

const answerSchema = z.object({
  access_token: z.string().min(1),
  expires_in: z.number().nonnegative(),
  refresh_token: z.string().min(1),
  refresh_token_expires_in: z.number().nonnegative().optional(),
  scope: z.string().optional(),
});

const errorSchema = z.looseObject({ error: z.string().optional() });
const OFFLINE_TOKEN_TYPE = "urn:shopify:params:oauth:token-type:offline-access-token";
// Grants Shopify refuses for good: the refresh token is dead, or the token to migrate is.
const DEAD_GRANTS = new Set(["invalid_grant", "invalid_subject_token"]);

export function createTokenEndpoint(options: {
  clientId: string;
  clientSecret: string;
  /** SHOPIFY_ORIGIN: https://{shop} when unset. */
  originTemplate?: string;
  fetch?: typeof globalThis.fetch;
  timeoutMs?: number;
  now?: () => number;
}): TokenEndpoint {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const now = options.now ?? Date.now;

  async function post(shop: string, what: string, body: Record<string, string>): Promise<TokenPair> {
    const url = accessTokenUrl(shopOrigin(shop, options.originTemplate));
    const startedAt = now();
    let res: Response;
    let text: string;
    try {
      res = await fetchImpl(url, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ client_id: options.clientId, client_secret: options.clientSecret, ...body }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      text = await res.text();
    } catch (error) {
      // Shopify may have answered: the same grant again gets the pair back (or a newer one).
      throw new ShopifyRetryableError(`${what}: no answer from the token endpoint`, { shop, cause: error });
    }
    if (res.status >= 500 || res.status === 429) {
      throw new ShopifyRetryableError(`${what}: token endpoint answered HTTP ${res.status}`, {
        shop,
        status: res.status,
      });
    }
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
    if (res.status >= 400) {
      const code = errorSchema.safeParse(json).data?.error;
      if (code && DEAD_GRANTS.has(code)) {
        throw new ShopifyReauthRequiredError(`${what}: Shopify refused the grant (${code})`, {
          shop,
          reason: code,
          status: res.status,
        });
      }
      throw new ShopifyPermanentError(
        `${what}: token endpoint answered HTTP ${res.status}${code ? ` (${code})` : ""}`,
        { shop, status: res.status },
      );
    }
    const parsed = answerSchema.safeParse(json);
    if (!parsed.success) {
      throw new ShopifyRetryableError(`${what}: unreadable answer from the token endpoint (HTTP ${res.status})`, {
        shop,
        status: res.status,
      });
    }
    const a = parsed.data;
    return {
      accessToken: a.access_token,
      // Counted from when we asked: the answer may have taken a while to arrive.
      expires: new Date(startedAt + a.expires_in * 1000),
      refreshToken: a.refresh_token,
      refreshTokenExpires:
        a.refresh_token_expires_in === undefined ? null : new Date(startedAt + a.refresh_token_expires_in * 1000),
      scope: a.scope ?? null,
    };
  }

  return {
    refresh: (shop, refreshToken) =>
      post(shop, "token refresh", { grant_type: "refresh_token", refresh_token: refreshToken }),
    migrate: (shop, nonExpiringToken) =>
      post(shop, "token migration", {
        grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
        subject_token: nonExpiringToken,
        subject_token_type: OFFLINE_TOKEN_TYPE,
        requested_token_type: OFFLINE_TOKEN_TYPE,
        expiring: "1",
      }),
  };
}
