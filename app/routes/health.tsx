import { appContext } from "../.server/context.server";
import { checkHealth } from "../.server/health";

// Liveness and readiness for load balancers and the local demo: 200 when the database and Redis answer.
export const loader = async () => {
  const report = await checkHealth(appContext());
  return Response.json(report, { status: report.ok ? 200 : 503, headers: { "Cache-Control": "no-store" } });
};
