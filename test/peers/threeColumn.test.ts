import {describe, expect, it} from "vitest";

import {relDiff} from "../../src/analysis/peers/shared/stats.ts";
import {importAndAnalyze} from "./helpers.ts";
import {f} from "./synthetic.ts";

/**
 * The three-column view (issue 13): wherever our canonical number differs from the tool's, the row names
 * every reason (codes) and its note explains each one — a role chunk taken as the first token, TTFT in
 * the ITL, token weighting, chunk-pooled vs per-request ITL, measured latency vs ttft + Σ gaps, the window.
 */
const SETS = [
  ["vllm/vllm-2024-detailed.json"],
  ["vllm/vllm-2025-detailed.json"],
  ["sglang/sglang-bench-serving.jsonl"],
  ["genai-perf/profile_export.json", "genai-perf/profile_export_genai_perf.json"],
  ["aiperf/v0.12"],
  ["guidellm/window/benchmarks.json"],
  ["llmperf/synthetic_individual_responses.json", "llmperf/synthetic_summary.json"]
];

describe("three-column view: every difference states its reasons", () => {
  for (const set of SETS)
    it(set[0]!, async () => {
      const {report} = await importAndAnalyze("auto", set.map(f));
      let differing = 0;
      for (const r of report.source_comparison!) {
        const ref = r.reported ?? r.recomputed;
        if (r.canonical === null || ref === null || relDiff(ref, r.canonical) <= 1e-4) continue;
        differing++;
        expect(r.codes.length, `${r.metric}: a reason code`).toBeGreaterThan(0);
        for (const code of r.codes) expect(r.note, `${r.metric}: the note explains ${code}`).toContain(code);
      }
      expect(differing, "the fixture shows differences to explain").toBeGreaterThan(0);
    });
});
