// CLI: `npm run emulator -- [--port 8790] [--host 127.0.0.1] [--data-file .emulator/state.json]
//                          [--token-ttl 86400] [--seed] [--quiet] [--strict] [--admin-page-size 50]`
// `--strict` (or EMULATOR_STRICT=1): answers carry only the fields the spec documents.
// Starts the emulator, prints one line with the three URLs and the demo credentials, and stays up
// until SIGINT/SIGTERM, then closes cleanly (the data file is flushed).
import { parseArgs } from "node:util";
import { DEFAULT_ACCOUNT, startEmulator } from "./server";

const USAGE =
  "usage: emulator [--port N] [--host H] [--data-file PATH] [--token-ttl SECONDS] [--seed] [--quiet] [--strict] [--admin-page-size N]";

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: "string", default: process.env.EMULATOR_PORT ?? "8790" },
      host: { type: "string", default: "127.0.0.1" },
      "data-file": { type: "string" },
      "token-ttl": { type: "string", default: "86400" },
      seed: { type: "boolean", default: false },
      quiet: { type: "boolean", default: false },
      strict: { type: "boolean", default: process.env.EMULATOR_STRICT === "1" },
      "admin-page-size": { type: "string", default: "50" },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const port = Number(values.port);
  const ttl = Number(values["token-ttl"]);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0..65535\n${USAGE}`);
  if (!Number.isInteger(ttl) || ttl < 1) throw new Error(`--token-ttl must be a positive integer\n${USAGE}`);

  const emulator = await startEmulator({
    port,
    host: values.host,
    dataFile: values["data-file"],
    tokenTtlSeconds: ttl,
    logRequests: !values.quiet,
    strict: values.strict,
    adminPageSize: Number(values["admin-page-size"]),
  });
  // With a data file, --seed would overwrite the saved demo customer: seed only when it is empty.
  if (values.seed && emulator.control.state(DEFAULT_ACCOUNT.customer).products.length === 0) {
    emulator.control.seed({ customer: DEFAULT_ACCOUNT.customer });
  }
  const a = DEFAULT_ACCOUNT;
  process.stdout.write(
    `reviews emulator: base_url=${emulator.baseUrl} auth_url=${emulator.authUrl} rate_url=${emulator.rateUrl} ` +
      `customer=${a.customer} client_id=${a.clientId} client_secret=${a.clientSecret}${emulator.strict ? " strict" : ""}\n`,
  );

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    emulator.close().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`emulator close failed after ${signal}: ${String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.once("SIGINT", () => stop("SIGINT"));
  process.once("SIGTERM", () => stop("SIGTERM"));
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
