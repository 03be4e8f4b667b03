// Group commit for the many small reads and writes that concurrent jobs of one process each make
// for one row (an order's state, a customer's consent): the first request opens a group, which
// runs `windowMs` later, and every request arriving meanwhile (or while a group is running) joins
// it, so a storm of order deliveries reads its rows in one query and writes them in one
// transaction instead of one of each per delivery. Each caller still gets its own answer, only
// once its group ran: a write has committed when its promise resolves, as it would alone.

export interface GroupOptions<I, O> {
  /** How long a group stays open after its first request (0: the next turn of the event loop). */
  windowMs?: number;
  /** Requests one group takes at most (the rest wait for the next). */
  max?: number;
  /**
   * When a group fails, each request is run on its own with this and answers for itself (one bad
   * row must not fail the others). Without it every request of the group fails with the error.
   */
  single?: (input: I) => Promise<O>;
}

export interface Grouped<I, O> {
  (input: I): Promise<O>;
  /** Groups run and requests they answered, for tests and benchmarks. */
  stats(): { groups: number; requests: number };
}

/** `run` answers a group's inputs in their order. */
export function groupCommit<I, O>(run: (inputs: I[]) => Promise<O[]>, options: GroupOptions<I, O> = {}): Grouped<I, O> {
  const { windowMs = 0, max = 200, single } = options;
  type Waiting = { input: I; resolve: (o: O) => void; reject: (e: unknown) => void };
  let waiting: Waiting[] = [];
  let running = false;
  let opened = false;
  let groups = 0;
  let requests = 0;

  async function drain() {
    opened = false;
    running = true;
    while (waiting.length) {
      const group = waiting.slice(0, max);
      waiting = waiting.slice(max);
      groups++;
      requests += group.length;
      try {
        const answers = await run(group.map((w) => w.input));
        group.forEach((w, i) => w.resolve(answers[i]!));
      } catch (error) {
        if (!single) for (const w of group) w.reject(error);
        else for (const w of group) await single(w.input).then(w.resolve, w.reject);
      }
    }
    running = false;
  }

  const open = () => {
    opened = true;
    if (windowMs > 0) setTimeout(() => void drain(), windowMs);
    else setImmediate(() => void drain());
  };

  const grouped = (input: I) =>
    new Promise<O>((resolve, reject) => {
      waiting.push({ input, resolve, reject });
      if (!running && !opened) open();
    });
  grouped.stats = () => ({ groups, requests });
  return grouped;
}

const registries = new WeakMap<object, Map<string, unknown>>();

/**
 * The one group of this name for `owner` (a database client): every repository object made on the
 * same client in a process joins the same groups.
 */
export function groupOf<G>(owner: object, name: string, make: () => G): G {
  let registry = registries.get(owner);
  if (!registry) registries.set(owner, (registry = new Map()));
  let group = registry.get(name) as G | undefined;
  if (group === undefined) registry.set(name, (group = make()));
  return group;
}
