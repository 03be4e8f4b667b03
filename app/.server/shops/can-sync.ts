// Whether the app may sync a shop with the reviews service: the app is installed on it and it is
// connected (a customer key and a stored client secret). The one rule: the sync, the back-sync,
// the settings page and the CLI ask it before starting work that would otherwise be cancelled.

/** The shop record's fields the rule reads (a Prisma `Shop` has them). */
export interface SyncGate {
  installState: string;
  customerKey: string | null;
  clientSecretEncrypted: string | null;
}

export function canSyncShop(shop: SyncGate | null | undefined): boolean {
  return Boolean(shop && shop.installState === "installed" && shop.customerKey && shop.clientSecretEncrypted);
}

/** The same rule as a database filter, for reading the shops it lets through a page at a time. */
export const SYNCABLE_SHOPS = {
  installState: "installed",
  customerKey: { not: null },
  clientSecretEncrypted: { not: null },
} as const;
