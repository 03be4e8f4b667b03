import { describe, expect, it } from "vitest";
import { canSyncShop } from "./can-sync";

const shop = { installState: "installed", customerKey: "acme", clientSecretEncrypted: "sealed" };

describe("can this shop sync", () => {
  it("GIVEN an installed, connected shop THEN it syncs", () => {
    expect(canSyncShop(shop)).toBe(true);
  });

  it("GIVEN no shop, an uninstalled one or one without its key or secret THEN it does not", () => {
    expect(canSyncShop(null)).toBe(false);
    expect(canSyncShop(undefined)).toBe(false);
    expect(canSyncShop({ ...shop, installState: "uninstalled" })).toBe(false);
    expect(canSyncShop({ ...shop, customerKey: null })).toBe(false);
    expect(canSyncShop({ ...shop, customerKey: "" })).toBe(false);
    expect(canSyncShop({ ...shop, clientSecretEncrypted: null })).toBe(false);
  });
});
