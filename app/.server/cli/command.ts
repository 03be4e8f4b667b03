import { parseArgs, type ParseArgsConfig } from "node:util";

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  env: Record<string, string | undefined>;
  /** Progress lines that rewrite themselves on a terminal and print plainly elsewhere. */
  progress?(line: string): void;
}

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

export interface OptionSpec {
  type: "string" | "boolean";
  description?: string;
  short?: string;
  multiple?: boolean;
}
type Options = Record<string, OptionSpec>;

export interface Command<O extends Options = Options> {
  /** "connect" or "sync catalog". */
  name: string;
  summary: string;
  usage: string;
  options: O;
  required?: string[];
  /** Accepts positional arguments (`settings set ... catalog.variantKey=sku`); others refuse them. */
  positionals?: boolean;
  run(values: Record<string, string | boolean | undefined>, io: CliIo, positionals: string[]): Promise<number>;
}

export function defineCommand<O extends Options>(command: Command<O>): Command<O> {
  return command;
}

export function helpText(c: Command): string {
  const lines = [`${c.summary}`, "", `Usage: npm run cli -- ${c.name} ${c.usage}`.trimEnd(), "", "Options:"];
  for (const [name, o] of Object.entries(c.options)) {
    const desc = (o as { description?: string }).description ?? "";
    lines.push(`  --${name}${o.type === "string" ? " <value>" : ""}`.padEnd(30) + desc);
  }
  lines.push("  --help".padEnd(30) + "show this help");
  return lines.join("\n");
}

/** Parses argv for one command; unknown options and missing required ones are usage errors. */
export function parseCommandArgs(c: Command, argv: string[]) {
  let parsed;
  try {
    const options = Object.fromEntries(
      Object.entries(c.options).map(([k, o]) => [
        k,
        Object.fromEntries(
          Object.entries({ type: o.type, short: o.short, multiple: o.multiple }).filter(([, x]) => x !== undefined),
        ),
      ]),
    ) as unknown as NonNullable<ParseArgsConfig["options"]>;
    parsed = parseArgs({
      args: argv,
      options: { ...options, help: { type: "boolean" } },
      strict: true,
      allowPositionals: c.positionals ?? false,
    });
  } catch (error) {
    throw new UsageError((error as Error).message.replace(/\. To specify.*$/s, ""));
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  const positionals = parsed.positionals;
  if (values.help) return { help: true as const, values, positionals };
  for (const name of c.required ?? []) {
    if (values[name] === undefined || values[name] === "") throw new UsageError(`--${name} is required`);
  }
  return { help: false as const, values, positionals };
}
