import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { keyFrom, mask, open, seal, SecretBoxError } from "./secret-box";

const key = randomBytes(32);

describe("secret box (AES-256-GCM)", () => {
  it("GIVEN a secret WHEN sealed and opened THEN it comes back, and the sealed form does not contain it", () => {
    const sealed = seal("s3cr3t-client-value", key);
    expect(sealed).toMatch(/^v1:/);
    expect(sealed).not.toContain("s3cr3t");
    expect(open(sealed, key)).toBe("s3cr3t-client-value");
  });

  it("GIVEN the same secret twice THEN the ciphertexts differ (fresh IV)", () => {
    expect(seal("x", key)).not.toBe(seal("x", key));
  });

  it("GIVEN a tampered value or another key THEN opening fails without echoing the input", () => {
    const sealed = seal("value", key);
    const parts = sealed.split(":");
    parts[3] = Buffer.from("tampered").toString("base64");
    expect(() => open(parts.join(":"), key)).toThrow(SecretBoxError);
    expect(() => open(sealed, randomBytes(32))).toThrow(/could not be decrypted/);
  });

  it("GIVEN hex or base64 keys THEN both are accepted; other lengths are not", () => {
    expect(keyFrom("ab".repeat(32))).toHaveLength(32);
    expect(keyFrom(randomBytes(32).toString("base64"))).toHaveLength(32);
    expect(() => keyFrom("abcd")).toThrow(SecretBoxError);
  });

  it("GIVEN a secret THEN the mask shows only its ends", () => {
    expect(mask("abcdefghijkl")).toBe("ab••••kl");
    expect(mask("short")).toBe("••••");
    expect(mask(null)).toBe("(none)");
  });
});
