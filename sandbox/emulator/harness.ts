// Test harness for the emulator's own tests: real HTTP with global fetch against an instance on a
// free port.
import { DEFAULT_ACCOUNT, startEmulator, type Emulator, type EmulatorOptions } from "./server";

/**
 * Response bodies in these tests are asserted with expect(), field by field; giving each one a
 * static type would duplicate the typed client that the contract suite covers.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyBody = any;

export interface HttpResult<T = AnyBody> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

export async function call<T = AnyBody>(
  url: string,
  init: { method?: string; body?: unknown; token?: string; headers?: Record<string, string> } = {},
): Promise<HttpResult<T>> {
  const headers: Record<string, string> = { ...(init.headers ?? {}) };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  let body: string | undefined;
  if (init.body !== undefined) {
    body = typeof init.body === "string" ? init.body : JSON.stringify(init.body);
    headers["content-type"] ??= "application/json";
  }
  const res = await fetch(url, { method: init.method ?? (body ? "POST" : "GET"), headers, body });
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  return { status: res.status, body: parsed as T, text, headers: res.headers };
}

export async function issueToken(
  emu: Emulator,
  creds: { clientId?: string; clientSecret?: string } = {},
): Promise<string> {
  const res = await call<{ access_token: string }>(`${emu.authUrl}/oauth/token`, {
    body: {
      audience: emu.baseUrl,
      grant_type: "client_credentials",
      client_id: creds.clientId ?? DEFAULT_ACCOUNT.clientId,
      client_secret: creds.clientSecret ?? DEFAULT_ACCOUNT.clientSecret,
    },
  });
  if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${res.text}`);
  return res.body.access_token;
}

/** A started emulator plus a token for the demo customer and small request helpers. */
export async function setup(opts: EmulatorOptions = {}) {
  // The emulator's own tests assert its extras too: strict only when a test asks for it.
  const emu = await startEmulator({ logger: { info() {}, error() {} }, strict: false, ...opts });
  const token = await issueToken(emu);
  const customer = DEFAULT_ACCOUNT.customer;
  const admin = <T = AnyBody>(method: string, path: string, body?: unknown) =>
    call<T>(`${emu.baseUrl}/${customer}${path}`, { method, body, token });
  const client = <T = AnyBody>(method: string, path: string, body?: unknown) =>
    call<T>(`${emu.baseUrl}/${customer}${path}`, { method, body });
  return { emu, token, customer, admin, client };
}

export const product = (sku: string, extra: Record<string, unknown> = {}) => ({
  sku,
  name: `Product ${sku}`,
  categories: ["Apparel"],
  ...extra,
});
