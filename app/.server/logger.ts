import pino, { type Logger } from "pino";

// Keys whose values never reach a log line, wherever they sit in a logged object.
export const redactedKeys = [
  "clientSecret",
  "client_secret",
  "clientSecretEncrypted",
  "accessToken",
  "access_token",
  "refreshToken",
  "refresh_token",
  "subject_token",
  "authorization",
  "Authorization",
  "token",
  "password",
  "secret",
  "apiSecret",
  "encryptionKey",
  "email",
  "phone",
];

const paths = redactedKeys.flatMap((k) => [k, `*.${k}`, `*.*.${k}`, `headers.${k}`]);

export type { Logger };

export function createLogger(
  options: { level?: string; name?: string; destination?: pino.DestinationStream } = {},
): Logger {
  return pino(
    {
      level: options.level ?? process.env.LOG_LEVEL ?? "info",
      name: options.name,
      redact: { paths, censor: "[redacted]" },
      base: { pid: process.pid, service: options.name },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    options.destination,
  );
}

let root: Logger | undefined;

/** The process logger; child loggers carry `shop`, `job` and the like. */
export function logger(): Logger {
  root ??= createLogger({ name: process.env.PROCESS_NAME ?? "web" });
  return root;
}
