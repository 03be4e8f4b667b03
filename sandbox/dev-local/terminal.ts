// What `npm run dev:local` writes to its terminal: lines that stay, one progress line that a
// terminal rewrites in place (off a terminal, e.g. in CI or a test, each new state is a line of its
// own), and steps that wait: "starting the app server … 12 s", ticking while it waits, so a long
// wait never looks like a hang.

export interface Output {
  write(text: string): unknown;
  isTTY?: boolean;
}

export interface Terminal {
  /** A line that stays. */
  say(line: string): void;
  /** The state of something under way: rewrites the last progress line on a terminal. */
  progress(line: string): void;
  /** Waits for `work`, showing that it waits and for how long; says how long it took. */
  step<T>(label: string, work: () => Promise<T>): Promise<T>;
}

/** "12 s", "2 min 05 s": how long something has been waiting. */
export function elapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, "0")} s`;
}

export function createTerminal(
  out: Output,
  options: { prefix?: string; now?: () => number; tickMs?: number } = {},
): Terminal {
  const prefix = options.prefix ?? "";
  const now = options.now ?? Date.now;
  const tty = out.isTTY === true;
  // A progress line is on screen without its newline (terminal only).
  let open = false;
  let lastProgress = "";

  const say = (line: string) => {
    if (open) out.write("\n");
    open = false;
    lastProgress = "";
    out.write(`${prefix}${line}\n`);
  };
  const progress = (line: string) => {
    if (line === lastProgress) return;
    lastProgress = line;
    if (!tty) return void out.write(`${prefix}${line}\n`);
    // Carriage return and erase line: the new state replaces the old one.
    out.write(`\r\x1b[2K${prefix}${line}`);
    open = true;
  };
  const step = async <T>(label: string, work: () => Promise<T>): Promise<T> => {
    const started = now();
    progress(`${label} …`);
    const ticker = tty
      ? setInterval(() => progress(`${label} … ${elapsed(now() - started)}`), options.tickMs ?? 1000)
      : undefined;
    try {
      const result = await work();
      if (tty && open) out.write("\r\x1b[2K");
      open = false;
      say(`${label}: done (${elapsed(now() - started)})`);
      return result;
    } catch (error) {
      if (tty && open) out.write("\r\x1b[2K");
      open = false;
      say(`${label}: failed after ${elapsed(now() - started)}`);
      throw error;
    } finally {
      clearInterval(ticker);
    }
  };
  return { say, progress, step };
}
