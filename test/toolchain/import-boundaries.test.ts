import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// The import boundaries of eslint.config.js, proved on made-up files: a rule that matched nothing
// would let `npm run lint` pass while the boundary is crossed.

const ROOT = new URL("../..", import.meta.url).pathname;
const eslint = new ESLint({ cwd: ROOT });

async function restricted(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${ROOT}${filePath}` });
  return result!.messages.filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.message);
}

async function house(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${ROOT}${filePath}` });
  return result!.messages.filter((m) => m.ruleId === "house/rooms").map((m) => m.message);
}

const importOf = (from: string) => `import { x } from "${from}";\nexport const y = x;\n`;

describe("import boundaries", () => {
  it("GIVEN product code THEN it may not import the sandbox or the tests", async () => {
    expect(await restricted("app/.server/admin/probe.ts", importOf("../../../sandbox/emulator/server"))).toHaveLength(
      1,
    );
    expect(await restricted("app/routes/probe.tsx", importOf("../../test/helpers/redis"))).toHaveLength(1);
    expect(await restricted("workers/processors/probe.ts", importOf("../../sandbox/simulated-store"))).toHaveLength(1);
    expect(await restricted("server/probe.ts", importOf("test/helpers/redis"))).toHaveLength(1);
  });

  it("GIVEN app/.server THEN it may not import the workers, not even from a test", async () => {
    expect(await restricted("app/.server/sync/probe.ts", importOf("../../../workers/start"))).toHaveLength(1);
    expect(await restricted("app/.server/sync/probe.test.ts", importOf("../../../workers/start"))).toHaveLength(1);
  });

  it("GIVEN code outside the reviews client THEN it imports the client's entry, not its modules", async () => {
    expect(await restricted("app/.server/storefront/probe.ts", importOf("../reviews/storefront.schemas"))).toHaveLength(
      1,
    );
    expect(await restricted("app/.server/mapping/probe.test.ts", importOf("../reviews/admin.schemas"))).toHaveLength(1);
    expect(
      await restricted("sandbox/emulator/probe.ts", importOf("../../app/.server/reviews/reviews-client")),
    ).toHaveLength(1);
    expect(await restricted("app/routes/probe.tsx", importOf("~/.server/reviews/errors"))).toHaveLength(1);
    expect(await restricted("app/.server/storefront/probe.ts", importOf("../reviews"))).toEqual([]);
    expect(await restricted("sandbox/emulator/probe.ts", importOf("../../app/.server/reviews"))).toEqual([]);
    expect(await restricted("sandbox/emulator/probe.ts", importOf("./reviews"))).toEqual([]);
  });

  it("GIVEN the reviews client's own files and tests THEN they import its modules", async () => {
    expect(await restricted("app/.server/reviews/probe.ts", importOf("./storefront.schemas"))).toEqual([]);
    expect(await restricted("app/.server/reviews/probe.test.ts", importOf("../reviews/http"))).toEqual([]);
    expect(await restricted("app/.server/reviews/probe.ts", importOf("../../../workers/start"))).toHaveLength(1);
  });

  it("GIVEN a processor THEN it may not import another processor, only use cases and worker plumbing", async () => {
    const processor = "workers/processors/probe.processor.ts";
    expect(await restricted(processor, importOf("./order.processor"))).toHaveLength(1);
    expect(await restricted(processor, importOf("./order.handlers"))).toHaveLength(1);
    expect(await restricted(processor, importOf("./bulk-finish.handler"))).toHaveLength(1);
    expect(await restricted("workers/processors/probe.handlers.ts", importOf("./catalog.processor"))).toHaveLength(1);
    expect(await restricted(processor, importOf("../../sandbox/simulated-store"))).toHaveLength(1);
    expect(await restricted(processor, importOf("./errors"))).toEqual([]);
    expect(await restricted(processor, importOf("./registry"))).toEqual([]);
    expect(await restricted(processor, importOf("../outcome-adapter"))).toEqual([]);
    expect(await restricted(processor, importOf("../../app/.server/orders/order-calls"))).toEqual([]);
    // A test drives the processors it proves.
    expect(await restricted("workers/processors/probe.test.ts", importOf("./order.processor"))).toEqual([]);
  });

  it("GIVEN a test beside the behaviour, the sandbox or the tests THEN they import what they need", async () => {
    expect(await restricted("app/.server/sync/probe.test.ts", importOf("../../../sandbox/emulator/server"))).toEqual(
      [],
    );
    expect(await restricted("workers/processors/probe.test.ts", importOf("../../test/helpers/redis"))).toEqual([]);
    expect(await restricted("sandbox/dev-local/probe.ts", importOf("../../app/.server/config"))).toEqual([]);
    expect(await restricted("test/helpers/probe.ts", importOf("../../workers/start"))).toEqual([]);
  });

  it("GIVEN a folder of app/.server THEN others import it through its door, downwards only", async () => {
    const typeOf = (from: string) => `import type { X } from "${from}";\nexport type Y = X;\n`;
    expect(await house("app/.server/orders/probe.ts", importOf("../catalog/flush"))).toHaveLength(1);
    expect(await house("app/.server/orders/probe.ts", typeOf("../catalog/pending-changes"))).toHaveLength(1);
    expect(await house("app/routes/probe.tsx", importOf("~/.server/shops/shop.repository"))).toHaveLength(1);
    expect(await house("workers/processors/probe.ts", importOf("../../app/.server/orders/order-calls"))).toHaveLength(
      1,
    );
    expect(await house("app/.server/orders/probe.ts", importOf("../catalog"))).toEqual([]);
    expect(await house("app/.server/orders/probe.ts", importOf("./apply-order"))).toEqual([]);
    expect(await house("app/.server/storefront/writes/probe.ts", importOf("../../config"))).toEqual([]);
    // A floor above: a client imports no domain, a domain no composition, not even a type.
    expect(await house("app/.server/shopify/probe.ts", typeOf("../shops"))).toHaveLength(1);
    expect(await house("app/.server/catalog/probe.ts", importOf("../admin"))).toHaveLength(1);
    expect(await house("app/.server/config.ts", importOf("./shopify"))).toHaveLength(1);
    // The admin's browser side is not the server's to import; both import app/shared/.
    expect(await house("app/.server/admin/probe.ts", importOf("../../admin/messages"))).toHaveLength(1);
    expect(await house("app/.server/admin/probe.ts", importOf("../../shared/messages"))).toEqual([]);
    // A folder no floor names is refused until it is placed.
    expect(await house("app/.server/attic/probe.ts", importOf("../config"))).toHaveLength(1);
    // Tests reach into what they prove.
    expect(await house("app/.server/orders/probe.test.ts", importOf("../catalog/flush"))).toEqual([]);
    expect(await house("test/helpers/probe.ts", importOf("../../app/.server/catalog/flush"))).toEqual([]);
  });
});
