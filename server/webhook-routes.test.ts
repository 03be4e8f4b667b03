import type { ServerBuild } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { webhookActions } from "./webhook-routes";

// Which routes of a build the web server answers before Remix: the shape is Remix's (`build.routes`,
// ids by file, paths relative to the parent's).

const action = async () => new Response(null);
const route = (id: string, parentId: string | undefined, path: string | undefined, withAction = true) => ({
  id,
  parentId,
  path,
  module: withAction ? { action } : {},
});

const build = {
  routes: {
    root: route("root", undefined, "", false),
    "routes/webhooks.products.update": route("routes/webhooks.products.update", "root", "webhooks/products/update"),
    "routes/webhooks.app.uninstalled": route("routes/webhooks.app.uninstalled", "root", "webhooks/app/uninstalled"),
    // Not webhooks, or not exact: left to Remix's matcher.
    "routes/apps.reviews.$": route("routes/apps.reviews.$", "root", "apps/reviews/*"),
    "routes/webhooks.$topic": route("routes/webhooks.$topic", "root", "webhooks/:topic"),
    "routes/webhooks.docs": route("routes/webhooks.docs", "root", "webhooks/docs", false),
    "routes/app": route("routes/app", "root", "app"),
    "routes/app.webhooks.log": route("routes/app.webhooks.log", "routes/app", "webhooks/log"),
  },
} as unknown as ServerBuild;

describe("webhook routes before Remix", () => {
  it("GIVEN a build THEN every static webhook path with an action, by its full path, and nothing else", () => {
    expect([...webhookActions(build).keys()].sort()).toEqual([
      "/webhooks/app/uninstalled",
      "/webhooks/products/update",
    ]);
  });
});
