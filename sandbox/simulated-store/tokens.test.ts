import { describe, expect, it } from "vitest";
import { TokenAuthority } from "./tokens";

// The simulated store's offline tokens keep Shopify's rules, or the tests built on them prove
// nothing: rotation with the previous refresh token usable until the new pair's first use, expiry,
// the migration exchange answering the same pair when asked again, after-2027 refusals.

const LEGACY = "shpat_legacy";
function authority() {
  let now = 1_000_000;
  const a = new TokenAuthority({
    legacyToken: LEGACY,
    tokenLifetimeMs: 60_000,
    refreshTokenLifetimeMs: 90 * 86_400_000,
    scope: "read_orders",
    now: () => now,
  });
  return { a, advance: (ms: number) => (now += ms) };
}
type Pair = { access_token: string; refresh_token: string; expires_in: number };
const refresh = (a: TokenAuthority, token: string) =>
  a.tokenEndpoint({ grant_type: "refresh_token", refresh_token: token });
const exchange = (a: TokenAuthority, subject: string) =>
  a.tokenEndpoint({
    grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
    subject_token: subject,
    subject_token_type: "urn:shopify:params:oauth:token-type:offline-access-token",
    requested_token_type: "urn:shopify:params:oauth:token-type:offline-access-token",
    expiring: "1",
  });

describe("simulated offline tokens", () => {
  it("GIVEN a refresh THEN the old refresh token works again until the new pair is used, and never after", () => {
    const { a } = authority();
    const install = a.install();
    const first = refresh(a, install.refreshToken);
    expect(first.status).toBe(200);
    // The answer was lost: the same refresh token again, and a newer pair (the first one void).
    const again = refresh(a, install.refreshToken);
    expect(again.status).toBe(200);
    const pair = again.body as Pair;
    expect(a.admit((first.body as Pair).access_token).verdict).toBe("revoked");
    expect(a.admit(pair.access_token).verdict).toBe("ok");
    expect(refresh(a, install.refreshToken)).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    expect(a.stats).toMatchObject({ refreshes: 2, refreshesRefused: 1 });
  });

  it("GIVEN time passes THEN an access token expires (401), and a revoked refresh token is refused", () => {
    const { a, advance } = authority();
    const install = a.install();
    advance(60_000);
    expect(a.admit(install.accessToken)).toMatchObject({ verdict: "expired", expiredForMs: 0 });
    const next = refresh(a, install.refreshToken).body as Pair;
    expect(next.expires_in).toBe(60);
    a.revokeRefreshTokens();
    expect(refresh(a, next.refresh_token).status).toBe(400);
  });

  it("GIVEN the migration exchange THEN asked again it answers the same pair; the original stops working; after 2027 nothing is exchanged", () => {
    const { a } = authority();
    expect(a.admit(LEGACY).verdict).toBe("ok");
    const first = exchange(a, LEGACY).body as Pair;
    const second = exchange(a, LEGACY).body as Pair;
    expect(second).toMatchObject({ access_token: first.access_token, refresh_token: first.refresh_token });
    expect(a.admit(LEGACY).verdict).toBe("revoked");
    // Once the pair is refreshed, the exchange cannot be recovered any more.
    expect(refresh(a, first.refresh_token).status).toBe(200);
    expect(exchange(a, LEGACY).status).toBe(400);

    const late = authority().a;
    late.after2027 = true;
    expect(late.admit(LEGACY).verdict).toBe("revoked");
    expect(exchange(late, LEGACY)).toMatchObject({ status: 400, body: { error: "invalid_subject_token" } });
  });

  it("GIVEN the merchant revokes the app's access THEN every token is refused at once, however fresh, and nothing is exchanged", () => {
    const { a } = authority();
    const install = a.install();
    const next = refresh(a, install.refreshToken).body as Pair;
    expect(a.admit(next.access_token).verdict).toBe("ok");
    a.revokeAll();
    expect(a.admit(next.access_token).verdict).toBe("revoked");
    expect(a.admit(LEGACY).verdict).toBe("revoked");
    expect(refresh(a, next.refresh_token)).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    expect(exchange(a, LEGACY)).toMatchObject({ status: 400, body: { error: "invalid_subject_token" } });
  });
});
