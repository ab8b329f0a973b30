import {readFileSync} from "node:fs";
import {join} from "node:path";

import {parse} from "yaml";
import {describe, expect, it} from "vitest";

import {importAndAnalyzeTexts, SYNTH} from "../helpers.ts";

/**
 * Q2: a vLLM run at `--request-rate 10 --max-concurrency 2` (the audit's 2025-03 file: request_rate 10.0,
 * burstiness 1.0, max_concurrency 2, and 1.06 req/s achieved) is the point poisson-10 — ids are `<mode>-<value>`
 * everywhere, collected bundles included — and its cap must travel with it: in the manifest's point, in the
 * config's load block, and in a note.
 */
describe("an open-loop vLLM point keeps its max_concurrency cap", () => {
  it("request_rate 10 with max_concurrency 2: poisson-10, capped at 2 in the manifest, the config and the notes", async () => {
    const doc = JSON.parse(readFileSync(join(SYNTH, "vllm/vllm-2024-detailed.json"), "utf8")) as Record<
      string,
      unknown
    >;
    Object.assign(doc, {request_rate: 10.0, burstiness: 1.0, max_concurrency: 2});
    const {run, files} = await importAndAnalyzeTexts("vllm", [{name: "vllm.json", text: JSON.stringify(doc)}]);
    expect(run.loadPoints.map((p) => [p.id, p.mode, p.value, p.maxConcurrency])).toEqual([
      ["poisson-10", "poisson", 10, 2]
    ]);
    const config = parse(files["config.resolved.yaml"]!) as {load: Record<string, unknown>};
    expect(config.load).toMatchObject({mode: "poisson", values: [10], max_concurrency: 2});
    expect(run.notes).toContain(
      "poisson-10: 10 req/s with at most 2 requests in flight (max_concurrency): where the cap is reached it, not the rate, sets the achieved load"
    );
  });

  it("a closed-loop point (infinite rate, max_concurrency 4) has its cap as its value, not as a second cap", async () => {
    const doc = JSON.parse(readFileSync(join(SYNTH, "vllm/vllm-2024-detailed.json"), "utf8")) as Record<
      string,
      unknown
    >;
    Object.assign(doc, {request_rate: "inf", max_concurrency: 4});
    const {files} = await importAndAnalyzeTexts("vllm", [{name: "vllm.json", text: JSON.stringify(doc)}]);
    const config = parse(files["config.resolved.yaml"]!) as {load: Record<string, unknown>};
    expect(config.load).toMatchObject({mode: "concurrency", values: [4]});
    expect(config.load.max_concurrency).toBeUndefined();
  });
});
