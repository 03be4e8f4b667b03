import { vi } from "vitest";

// The integration, browser and contract files share processes (isolate: false) for what costs most
// to load, the packages in node_modules, which vitest loads once per process. The app's own modules
// hold per-process state (caches, queues, the metrics registry), so each file gets them evaluated
// afresh, and none inherits the database client or app context the one before it left on
// globalThis (kept there for Vite's hot reloads).
vi.resetModules();
delete globalThis.__reviewsDb;
delete globalThis.__reviewsContext;
