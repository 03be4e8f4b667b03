import type { ReviewsAdminApi } from "../reviews";

// Product groups and the storefront: a product of a group shows the group's reviews (its summary
// counts every product of the group), so the metafields of every product in a group move together.
// A review change on one product refreshes its group mates; a group created, edited or deleted
// refreshes every product whose group changed, although no review moved. The service has no
// change feed for groups: the back-sync compares the groups as they are with what it remembered
// at its last run (each SKU's group, written as the group's sorted SKUs).

/**
 * Set while the shop's groups were read within the hour: a poll whose feed is empty then skips
 * them (most polls at scale). A group changed in the admin removes it; one changed at the service
 * is seen within the hour, or with the next review change.
 */
export function groupsReadKey(prefix: string, shopId: string): string {
  return `${prefix}:backsync:groups-read:${shopId}`;
}

/** How long a read of the groups holds for a quiet shop. */
export const GROUPS_MAX_AGE_MS = 3_600_000;

/** SKU → its group's SKUs (sorted, joined by a newline), for every SKU in a group. */
export type GroupMembership = Record<string, string>;

const GROUPS_PAGE = 100;
const MAX_PAGES = 1_000;

/** Every product group of the account, paged with `skip` advanced by what each page held. */
export async function readGroupMembership(
  admin: Pick<ReviewsAdminApi, "listProductGroups">,
  opts: { signal?: AbortSignal } = {},
): Promise<GroupMembership> {
  const membership: GroupMembership = {};
  for (let skip = 0, pages = 0; pages < MAX_PAGES; pages++) {
    const page = await admin.listProductGroups(
      { limit: GROUPS_PAGE, ...(skip ? { skip } : {}) },
      { signal: opts.signal },
    );
    for (const group of page.result) {
      const together = [...new Set(group.skus)].sort().join("\n");
      for (const sku of group.skus) membership[sku] = together;
    }
    skip += page.result.length;
    if (page.result.length === 0 || skip >= page.total) break;
  }
  return membership;
}

/** Pure: the SKUs whose group is not what it was (joined, left, or the group's SKUs changed). */
export function regrouped(before: GroupMembership, now: GroupMembership): string[] {
  const out = new Set<string>();
  for (const sku of new Set([...Object.keys(before), ...Object.keys(now)])) if (before[sku] !== now[sku]) out.add(sku);
  // A product that left a group changes what its former mates show too.
  for (const sku of [...out]) for (const mate of (before[sku] ?? "").split("\n").filter(Boolean)) out.add(mate);
  return [...out];
}

/** Pure: the products, each with its group mates (as the groups are now), each once. */
export function withGroupMates(products: readonly string[], now: GroupMembership): string[] {
  const out = new Set<string>();
  for (const sku of products) {
    out.add(sku);
    for (const mate of (now[sku] ?? "").split("\n").filter(Boolean)) out.add(mate);
  }
  return [...out];
}
