import "@shopify/shopify-app-remix/adapters/node";
import { LogSeverity, shopifyApp, type ApiVersion } from "@shopify/shopify-app-remix/server";
import { SHOPIFY_API_VERSION } from "../shopify";
import type { AppProxyAuthenticate } from "../storefront";

// The library's `authenticate.public.appProxy` (signature, 90 s timestamp window) and its
// customer account / checkout session token checks, from an instance of the library made for them, whose session
// storage holds nothing. The app's main
// instance also loads the shop's offline session on every proxied request (a database read, over
// half the cost of a cached read at 500 requests/s) to offer an Admin client the storefront routes
// never use. Same checks, same answers.

type SessionStorage = NonNullable<Parameters<typeof shopifyApp>[0]["sessionStorage"]>;

const noSessions = {
  storeSession: async () => true,
  loadSession: async () => undefined,
  deleteSession: async () => true,
  deleteSessions: async () => true,
  findSessionsByShop: async () => [],
} as unknown as SessionStorage;

type PublicAuthenticate = ReturnType<typeof shopifyApp>["authenticate"]["public"];
/** The customer account and checkout UI extensions' session tokens (`Authorization: Bearer`). */
export type ExtensionAuthenticate = PublicAuthenticate["customerAccount"];

const made = new Map<string, PublicAuthenticate>();

interface AuthOptions {
  apiKey: string;
  apiSecretKey: string;
  appUrl: string;
  scopes: string;
}

function publicAuthenticate(opts: AuthOptions): PublicAuthenticate {
  const key = JSON.stringify(opts);
  let authenticate = made.get(key);
  if (!authenticate) {
    const app = shopifyApp({
      apiKey: opts.apiKey,
      apiSecretKey: opts.apiSecretKey,
      apiVersion: SHOPIFY_API_VERSION as ApiVersion,
      appUrl: opts.appUrl,
      scopes: opts.scopes.split(","),
      sessionStorage: noSessions,
      // Per-request info lines of the library stay off; ours say what matters.
      logger: { level: LogSeverity.Warning },
    });
    authenticate = app.authenticate.public;
    made.set(key, authenticate);
  }
  return authenticate;
}

export function proxyAuthenticate(opts: AuthOptions): AppProxyAuthenticate {
  return publicAuthenticate(opts).appProxy;
}

/** The same library instance's checks for the customer account and checkout (thank-you) extensions. */
export function extensionAuthenticate(opts: AuthOptions): {
  customerAccount: ExtensionAuthenticate;
  checkout: PublicAuthenticate["checkout"];
} {
  const { customerAccount, checkout } = publicAuthenticate(opts);
  return { customerAccount, checkout };
}
