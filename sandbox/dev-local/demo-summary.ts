// The block `npm run dev:local` ends with: every address to open, grouped by who looks at it, so
// the reader finds them together at the bottom of the terminal instead of among the demo's lines.
// Pure: the demo collects the addresses, this turns them into lines.

export interface DemoAddress {
  /** What the address shows, and how to use it, in a few words. */
  label: string;
  url: string;
  /** Further hints, a line each, printed under the address. */
  notes?: string[];
  /** false for an address that is no page for a person (a feed): the browser check leaves it out. */
  page?: false;
}

export interface DemoAddresses {
  admin: DemoAddress[];
  storefront: DemoAddress[];
  account: DemoAddress[];
  operator: DemoAddress[];
}

export const SUMMARY_GROUPS: readonly { key: keyof DemoAddresses; title: string }[] = [
  { key: "admin", title: "Embedded admin (as Shopify's admin would frame it)" },
  { key: "storefront", title: "Storefront" },
  { key: "account", title: "Customer account" },
  { key: "operator", title: "Operator" },
];

export const SUMMARY_HEADING = "──────── open in a browser ────────";

export function emptyAddresses(): DemoAddresses {
  return { admin: [], storefront: [], account: [], operator: [] };
}

/** Heading, then each group that has addresses, in the order admin, storefront, account, operator. */
export function formatSummary(addresses: DemoAddresses, footer?: string): string[] {
  const lines = [SUMMARY_HEADING];
  for (const { key, title } of SUMMARY_GROUPS) {
    if (addresses[key].length === 0) continue;
    lines.push(title);
    for (const a of addresses[key]) {
      lines.push(`  ${a.label}`);
      lines.push(`    ${a.url}`);
      for (const note of a.notes ?? []) lines.push(`    · ${note}`);
    }
  }
  if (footer) lines.push(footer);
  return lines;
}

/** Every page of the summary that lies under an origin (the storefront's pages, for the browser check). */
export function addressesUnder(addresses: DemoAddresses, origin: string): string[] {
  return SUMMARY_GROUPS.flatMap(({ key }) => addresses[key].filter((a) => a.page !== false).map((a) => a.url)).filter(
    (url) => url.startsWith(`${origin}/`) || url === origin,
  );
}
