import { Session } from "@shopify/shopify-api";
import type { SessionStorage } from "@shopify/shopify-app-session-storage";
import { open, seal, SecretBoxError } from "../crypto";

// The library's session storage with the refresh token sealed at rest (ENCRYPTION_KEY, like the
// service's client secret): it can mint access tokens for 90 days, so a copy of the database must
// not be enough to use it. The library still refreshes inside merchant requests: it loads the
// session opened and stores the new pair through here, sealed again.

export class SealedSessionStorage implements SessionStorage {
  constructor(
    private readonly inner: SessionStorage,
    private readonly key: Buffer,
  ) {}

  storeSession(session: Session): Promise<boolean> {
    if (!session.refreshToken) return this.inner.storeSession(session);
    const copy = new Session(session.toObject());
    copy.refreshToken = seal(session.refreshToken, this.key);
    return this.inner.storeSession(copy);
  }

  async loadSession(id: string): Promise<Session | undefined> {
    const session = await this.inner.loadSession(id);
    return session && this.opened(session);
  }

  deleteSession(id: string): Promise<boolean> {
    return this.inner.deleteSession(id);
  }

  deleteSessions(ids: string[]): Promise<boolean> {
    return this.inner.deleteSessions(ids);
  }

  async findSessionsByShop(shop: string): Promise<Session[]> {
    return (await this.inner.findSessionsByShop(shop)).map((s) => this.opened(s));
  }

  private opened(session: Session): Session {
    if (!session.refreshToken) return session;
    const copy = new Session(session.toObject());
    try {
      copy.refreshToken = open(session.refreshToken, this.key);
    } catch (error) {
      if (!(error instanceof SecretBoxError)) throw error;
      // Unreadable (another key): without it the library exchanges a new pair on the next request.
      copy.refreshToken = undefined;
      copy.refreshTokenExpires = undefined;
    }
    return copy;
  }
}
