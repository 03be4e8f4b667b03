// The ports `npm run dev:local` listens on when nothing overrides them (`--check` takes free ones).
// One list, so the README's table of addresses is checked against what the demo really opens
// (test/docs.test.ts).

export interface DevLocalPort {
  /** What listens there, as the README's table names it. */
  name: string;
  port: number;
  /** The variable that moves it. */
  variable: string;
}

export const DEV_LOCAL_PORTS = {
  app: { name: "app server (embedded admin, webhooks, app proxy, /health)", port: 3000, variable: "PORT" },
  operatorDashboard: { name: "operator dashboard (queues)", port: 8786, variable: "OPERATOR_DASHBOARD_PORT" },
  emulator: { name: "reviews-service emulator", port: 8787, variable: "EMULATOR_PORT" },
  store: { name: "simulated Shopify store", port: 8788, variable: "SIMULATED_STORE_PORT" },
  storefront: { name: "local storefront", port: 8789, variable: "STOREFRONT_PORT" },
} as const satisfies Record<string, DevLocalPort>;

/** The port of a part: its variable when set, else the default. */
export function devLocalPort(part: keyof typeof DEV_LOCAL_PORTS, env: NodeJS.ProcessEnv = process.env): number {
  const { port, variable } = DEV_LOCAL_PORTS[part];
  return Number(env[variable] || port);
}
