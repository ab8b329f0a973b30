import {spawnSync} from "node:child_process";
import {existsSync, mkdirSync, readdirSync, readFileSync} from "node:fs";
import {join} from "node:path";

import {afterAll, describe, expect, it} from "vitest";

import {REPO_ROOT, tempDir} from "./helpers.ts";

/**
 * Issue 17 (fixed cost): the `inferscope` launcher turns on V8's compile cache before it loads the CLI, so a
 * checkout's few hundred TypeScript modules are not stripped and compiled again on every start.
 */
const t = tempDir("inferscope-bin-");
afterAll(() => t.cleanup());
const {version} = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as {version: string};

function run(env: Record<string, string>) {
  const r = spawnSync(process.execPath, [join(REPO_ROOT, "collector", "bin.mjs"), "--version"], {
    cwd: REPO_ROOT,
    encoding: "utf8",
    env: {PATH: process.env.PATH ?? "", HOME: t.dir, ...env},
    timeout: 60_000
  });
  return {code: r.status, out: r.stdout.trim()};
}
const files = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir, {recursive: true, withFileTypes: true})
        .filter((d) => d.isFile())
        .map((d) => d.name)
    : [];

describe("the inferscope launcher", () => {
  // No NODE_COMPILE_CACHE (which would turn the cache on by itself): the launcher's own call puts it in
  // the temp folder, $TMPDIR/node-compile-cache.
  it("writes the compile cache under the temp folder, and runs the same from it", () => {
    const tmp = join(t.dir, "tmp-on");
    mkdirSync(tmp);
    expect(run({TMPDIR: tmp})).toEqual({code: 0, out: version});
    expect(files(join(tmp, "node-compile-cache")).length).toBeGreaterThan(10);
    expect(run({TMPDIR: tmp})).toEqual({code: 0, out: version});
  });

  it("NODE_DISABLE_COMPILE_CACHE=1 keeps it off", () => {
    const tmp = join(t.dir, "tmp-off");
    mkdirSync(tmp);
    expect(run({TMPDIR: tmp, NODE_DISABLE_COMPILE_CACHE: "1"})).toEqual({code: 0, out: version});
    expect(files(join(tmp, "node-compile-cache"))).toEqual([]);
  });
});
