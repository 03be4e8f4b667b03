import { fileURLToPath } from "node:url";
import { helpText, parseCommandArgs, UsageError, type CliIo, type Command } from "./command";
import { complianceCommand, connectCommand, disconnectCommand, statusCommand } from "./shop.commands";
import { syncCatalogCommand, syncErrorsCommand, syncOrdersCommand } from "./sync.commands";
import { settingsSetCommand, settingsShowCommand } from "./settings.commands";
import { tokensMigrateCommand } from "./token.commands";
import { ConfigError } from "../config";
import { loadDotEnv } from "../dotenv";

// `npm run cli -- <command>`: what an operator (and a test) can do without the admin UI.
export const commands: Command[] = [
  connectCommand,
  statusCommand,
  disconnectCommand,
  syncCatalogCommand,
  syncOrdersCommand,
  syncErrorsCommand,
  settingsShowCommand,
  settingsSetCommand,
  complianceCommand,
  tokensMigrateCommand,
];

function overview(): string {
  const width = Math.max(...commands.map((c) => c.name.length)) + 2;
  return [
    "Usage: npm run cli -- <command> [options]",
    "",
    "Commands:",
    ...commands.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    "",
    "Run `npm run cli -- <command> --help` for a command's options.",
  ].join("\n");
}

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  if (argv.length === 0 || argv[0] === "--help" || argv[0] === "help") {
    io.out(overview());
    return argv.length === 0 ? 2 : 0;
  }
  // Longest match first, so "sync catalog" wins over a command named "sync".
  const command = [...commands]
    .sort((a, b) => b.name.split(" ").length - a.name.split(" ").length)
    .find((c) => c.name.split(" ").every((word, i) => argv[i] === word));
  if (!command) {
    io.err(`Unknown command: ${argv.join(" ")}\n\n${overview()}`);
    return 2;
  }
  const rest = argv.slice(command.name.split(" ").length);
  try {
    const { help, values, positionals } = parseCommandArgs(command, rest);
    if (help) {
      io.out(helpText(command));
      return 0;
    }
    return await command.run(values, io, positionals);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`Error: ${error.message}\nRun \`npm run cli -- ${command.name} --help\` for usage.`);
      return 2;
    }
    if (error instanceof ConfigError) {
      io.err(error.message);
      return 2;
    }
    io.err(`Error: ${(error as Error).message}`);
    return 1;
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  loadDotEnv();
  // On a terminal the progress line is redrawn in place (cleared to its end, as it can get shorter)
  // and ended before anything else is printed; elsewhere each change is a line of its own.
  let progressShown = false;
  const endProgress = () => {
    if (progressShown) process.stdout.write("\n");
    progressShown = false;
  };
  const io: CliIo = {
    out: (l) => {
      endProgress();
      process.stdout.write(`${l}\n`);
    },
    err: (l) => {
      endProgress();
      process.stderr.write(`${l}\n`);
    },
    env: process.env,
    progress: (l) => {
      if (!process.stdout.isTTY) return void process.stdout.write(`${l}\n`);
      process.stdout.write(`\r${l}\x1b[K`);
      progressShown = true;
    },
  };
  runCli(process.argv.slice(2), io).then((code) => process.exit(code));
}
