import { flatRoutes } from "@remix-run/fs-routes";
import type { RouteConfig } from "@remix-run/route-config";

// v3_routeConfig: the same file React Router v7 reads, so the migration keeps the route tree as is.
export default flatRoutes() satisfies RouteConfig;
