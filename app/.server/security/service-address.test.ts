import { describe, expect, it } from "vitest";
import { urlPolicy } from "./safe-url";
import { serviceAddressAllowed } from "./service-address";

const production = urlPolicy({ NODE_ENV: "production" });
const development = urlPolicy({ NODE_ENV: "development" });

describe("the reviews service's address a merchant types (SSRF_REQUEST_FORGERY)", () => {
  it.each([
    "https://127.0.0.1/api",
    "https://127.1/api",
    "https://0x7f000001/api",
    "https://2130706433/api",
    "https://10.0.0.8/api",
    "https://172.20.1.1/api",
    "https://192.168.1.10/api",
    "https://169.254.169.254/latest/meta-data",
    "https://100.64.0.1/api",
    "https://0.0.0.0/api",
    "https://[::1]/api",
    "https://[::ffff:127.0.0.1]/api",
    "https://[fd00::1]/api",
    "https://[fe80::1]/api",
    "https://localhost/api",
    "https://redis.internal/api",
    "https://printer.local/api",
    "https://metadata/api",
    "http://api.reviews.example/api",
    "https://user:pass@api.reviews.example/api",
    "javascript:alert(1)",
  ])("GIVEN %s in production THEN it is refused", (url) => {
    expect(serviceAddressAllowed(url, production)).toBe(false);
  });

  it("GIVEN public https addresses in production THEN they are allowed", () => {
    expect(serviceAddressAllowed("https://api.reviews.example/api", production)).toBe(true);
    expect(serviceAddressAllowed("https://203.0.113.10/api", production)).toBe(true);
    expect(serviceAddressAllowed("https://[2001:db8::1]/api", production)).toBe(true);
  });

  it("GIVEN the local emulator outside production THEN it stays reachable", () => {
    expect(serviceAddressAllowed("http://127.0.0.1:4010/api", development)).toBe(true);
    expect(serviceAddressAllowed("javascript:alert(1)", development)).toBe(false);
  });
});
