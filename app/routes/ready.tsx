import { appContext } from "../.server/context.server";
import { checkHealth } from "../.server/health";
import { isDraining } from "../.server/lifecycle";

// Readiness for load balancers: 200 while this process takes new work (database and Redis answer),
// 503 once it is draining after SIGTERM (requests in flight are still answered) or a dependency is
// down. /health is liveness: it stays as it was while draining.
export const loader = async () => {
  if (isDraining())
    return Response.json({ ready: false, draining: true }, { status: 503, headers: { "Cache-Control": "no-store" } });
  const report = await checkHealth(appContext());
  return Response.json(
    { ready: report.ok, draining: false, ...report },
    { status: report.ok ? 200 : 503, headers: { "Cache-Control": "no-store" } },
  );
};
