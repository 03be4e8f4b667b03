// The web process's life: whether it is draining (SIGTERM received, finishing what it holds) and
// what must be closed before it exits. Kept on a global registry because the server entry and the
// built app are two module graphs in one process (the entry runs from source, the app from its
// bundle): both must see one state.

interface Lifecycle {
  draining: boolean;
  closers: Map<string, () => Promise<unknown>>;
}

const KEY = Symbol.for("reviews-connector.lifecycle");

function state(): Lifecycle {
  const g = globalThis as unknown as Record<symbol, Lifecycle | undefined>;
  return (g[KEY] ??= { draining: false, closers: new Map() });
}

export const isDraining = () => state().draining;

/** From now on readiness answers false; requests in flight still get their answers. */
export function startDraining() {
  state().draining = true;
}

/** Registers what to close at exit (named, so a module loaded twice registers once). */
export function onClose(name: string, close: () => Promise<unknown>) {
  state().closers.set(name, close);
}

/** Closes everything registered, each on its own (one failing does not keep the others open). */
export async function closeAll(): Promise<PromiseSettledResult<unknown>[]> {
  const closers = [...state().closers.values()];
  state().closers.clear();
  return Promise.allSettled(closers.map((close) => close()));
}
