import { isIP } from "node:net";
import { checkUrl, type UrlPolicy } from "./safe-url";

// The reviews service's addresses a merchant types into the admin (API, auth, rating page): the
// server calls the first two with the account's secret. In production they must be public https
// addresses, so the form cannot turn the app into a client of the deployment's own network (a
// metadata endpoint, Redis, a neighbour): no loopback, private, link-local or shared ranges, no
// names that only resolve inside a network. A public name that resolves to a private address is
// not caught here (that needs the deployment's egress rules). Outside production the local
// emulator on 127.0.0.1 must stay reachable, so only the URL rule applies there.

const INTERNAL_NAME = /(^|\.)(localhost|local|internal|intranet|lan|home\.arpa)$/i;

function privateIPv4(ip: string): boolean {
  const [a, b] = ip.split(".").map(Number) as [number, number];
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    a >= 224 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 198 && (b === 18 || b === 19))
  );
}

function privateIPv6(ip: string): boolean {
  const v = ip.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(v)?.[1];
  if (mapped) return privateIPv4(mapped);
  // Mapped IPv4 as the URL parser writes it (hex groups).
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(v);
  if (hex) {
    const n = (parseInt(hex[1]!, 16) << 16) | parseInt(hex[2]!, 16);
    return privateIPv4([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join("."));
  }
  return v === "::" || v === "::1" || /^f[cd]/.test(v) || /^fe[89ab]/.test(v) || /^ff/.test(v);
}

/** True when the server may call this address as the reviews service. Pure. */
export function serviceAddressAllowed(raw: string, policy: UrlPolicy): boolean {
  const checked = checkUrl(raw, policy);
  if (checked === null) return false;
  if (policy.allowHttp) return true;
  const host = new URL(checked).hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) === 4) return !privateIPv4(host);
  if (isIP(host) === 6) return !privateIPv6(host);
  return host.includes(".") && !INTERNAL_NAME.test(host);
}
