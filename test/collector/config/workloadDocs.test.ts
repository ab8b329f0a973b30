import {existsSync, readdirSync, readFileSync} from "node:fs";
import {join} from "node:path";

import {describe, expect, it} from "vitest";

import {parseRunConfig} from "../../../collector/config/load.ts";
import {REPO_ROOT} from "../helpers.ts";

const doc = readFileSync(join(REPO_ROOT, "docs", "workloads.md"), "utf8");
const blocks = [...doc.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!);
const files = readdirSync(join(REPO_ROOT, "configs")).filter((f) => f.startsWith("workload-") && f.endsWith(".yaml"));

describe("docs/workloads.md", () => {
  it("shows one complete config per workload, each the shipped file verbatim", () => {
    expect(files.sort()).toEqual([
      "workload-dataset.yaml",
      "workload-embeddings.yaml",
      "workload-lengths.yaml",
      "workload-sessions.yaml",
      "workload-shared-prefix.yaml",
      "workload-trace.yaml"
    ]);
    const texts = files.map((f) => readFileSync(join(REPO_ROOT, "configs", f), "utf8"));
    expect(blocks.sort()).toEqual(texts.sort());
    const kinds = texts.map((t) => parseRunConfig(t, "x.yaml").workload.source?.kind ?? "synthetic").sort();
    expect(kinds).toEqual(["dataset", "dataset", "sessions", "shared_prefix", "synthetic", "trace"]);
  });

  it("every file a shipped workload config names exists (paths are relative to the repository root)", () => {
    for (const f of files) {
      const source = parseRunConfig(readFileSync(join(REPO_ROOT, "configs", f), "utf8"), f).workload.source;
      if (source !== undefined && "path" in source)
        expect(existsSync(join(REPO_ROOT, source.path)), `${f}: ${source.path}`).toBe(true);
    }
  });
});
