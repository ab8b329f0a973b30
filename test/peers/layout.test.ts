import {readdirSync, readFileSync, statSync} from "node:fs";
import {dirname, join, relative, resolve} from "node:path";

import {describe, expect, it} from "vitest";

import {PEER_TOOLS} from "../../src/analysis/index.ts";

/**
 * The floors of src/analysis/peers, checked on the import statements: shared/ is the ground floor, each
 * `<tool>/` stands on it (and on the few sibling parts named below), registry.ts names the tools, and
 * everything outside peers comes in through peers/index.ts.
 */
const ROOT = resolve("src/analysis/peers");
const TOOL_DIRS = ["vllm", "sglang", "genaiPerf", "aiperf", "guidellm", "llmperf", "inferscopeV1", "llmd"];
/** Sibling imports between tools, each for a stated reason. */
const CROSS_TOOL: Readonly<Record<string, readonly string[]>> = {
  // SGLang's file is vLLM's shape: one detection helper, one importer, one parity
  sglang: ["vllm/format.ts", "vllm/import.ts", "vllm/parity.ts"],
  // a GenAI-Perf summary is told apart from an AIPerf aggregate
  genaiPerf: ["aiperf/format.ts"]
};

const walk = (dir: string): string[] =>
  readdirSync(dir).flatMap((e) => {
    const p = join(dir, e);
    return statSync(p).isDirectory() ? walk(p) : p.endsWith(".ts") ? [p] : [];
  });

/** Relative imports of a file, resolved against the repository root. */
const importsOf = (file: string): string[] =>
  [...readFileSync(file, "utf8").matchAll(/(?:from|import)\s+"(\.{1,2}\/[^"]+)"/g)].map((m) =>
    relative(process.cwd(), resolve(dirname(file), m[1]!))
  );

const inPeers = (p: string) => relative(ROOT, resolve(p));

describe("peers layout: one folder per tool, one door", () => {
  it("every tool has format, import and parity, and no file is over 400 lines", () => {
    expect(TOOL_DIRS).toHaveLength(PEER_TOOLS.length);
    for (const t of TOOL_DIRS)
      for (const part of ["format.ts", "import.ts", "parity.ts"])
        expect(statSync(join(ROOT, t, part)).isFile(), `${t}/${part}`).toBe(true);
    const long = walk(ROOT)
      .map((f) => ({f: inPeers(f), n: readFileSync(f, "utf8").split("\n").length}))
      .filter((x) => x.n > 400);
    expect(long).toEqual([]);
  });

  it("shared/ imports nothing of the tools, the registry or the door", () => {
    const bad = walk(join(ROOT, "shared")).flatMap((f) =>
      importsOf(f)
        .filter((i) => i.startsWith("src/analysis/peers/") && !i.startsWith("src/analysis/peers/shared/"))
        .map((i) => `${inPeers(f)} → ${i}`)
    );
    expect(bad).toEqual([]);
  });

  it("a tool imports shared/, its own folder, lower floors of src/analysis and only the named sibling parts", () => {
    const bad: string[] = [];
    for (const t of TOOL_DIRS)
      for (const f of walk(join(ROOT, t)))
        for (const i of importsOf(f)) {
          if (!i.startsWith("src/analysis/")) continue;
          const p = i.startsWith("src/analysis/peers/") ? inPeers(i) : null;
          const allowed =
            p === null
              ? !/^src\/analysis\/(analyze|report|index)\.ts$/.test(i)
              : p.startsWith("shared/") || p.startsWith(`${t}/`) || (CROSS_TOOL[t] ?? []).includes(p);
          if (!allowed) bad.push(`${inPeers(f)} → ${i}`);
        }
    expect(bad).toEqual([]);
  });

  it("outside peers, source files import peers only through peers/index.ts", () => {
    const bad = ["src", "collector", "scripts"].flatMap((top) =>
      walk(resolve(top))
        .filter((f) => !resolve(f).startsWith(ROOT))
        .flatMap((f) =>
          importsOf(f)
            .filter((i) => i.startsWith("src/analysis/peers/") && i !== "src/analysis/peers/index.ts")
            .map((i) => `${relative(process.cwd(), f)} → ${i}`)
        )
    );
    expect(bad).toEqual([]);
  });
});
