import {join} from "node:path";

import {describe, expect, it} from "vitest";

import {isSummary, VLLM_CHAT_TTFT_CAVEAT} from "../../../src/analysis/index.ts";
import {importAndAnalyze, SYNTH} from "../helpers.ts";

/** Issue 10 item 13: where a vLLM chat TTFT is shown, say that a role-only first chunk may have counted. */
describe("imported vLLM chat TTFT", () => {
  it("a chat result (backend openai-chat) carries the role-chunk caveat on its TTFT rows and on ttft_ms", async () => {
    const {report, run} = await importAndAnalyze("vllm", [join(SYNTH, "vllm", "vllm-2025-detailed.json")]);
    expect(run.notes).toContain(VLLM_CHAT_TTFT_CAVEAT);
    const ttftRows = report.source_comparison!.filter((r) => /_ttft_ms$/.test(r.metric));
    expect(ttftRows.length).toBeGreaterThan(0);
    for (const r of ttftRows) {
      expect(r.codes, r.metric).toContain("definition");
      expect(r.note, r.metric).toContain("role-only chunk");
    }
    const ttft = report.load_points[0]!.metrics.ttft_ms!;
    expect(isSummary(ttft) && ttft.note).toContain("vLLM issue #15106");
  });

  it("a completions result (backend vllm) has no such caveat", async () => {
    const {report, run} = await importAndAnalyze("vllm", [join(SYNTH, "vllm", "vllm-2024-detailed.json")]);
    expect(run.notes).not.toContain(VLLM_CHAT_TTFT_CAVEAT);
    for (const r of report.source_comparison!.filter((x) => /_ttft_ms$/.test(x.metric)))
      expect(r.codes).not.toContain("definition");
    const ttft = report.load_points[0]!.metrics.ttft_ms!;
    expect(isSummary(ttft) ? ttft.note : undefined).toBeUndefined();
  });
});
