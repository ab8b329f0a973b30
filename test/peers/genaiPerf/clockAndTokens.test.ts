import {describe, expect, it} from "vitest";

import {importAndAnalyzeTexts} from "../helpers.ts";

/**
 * GenAI-Perf's clock and token counts (audit of three real non-streaming exports, perf_analyzer 2.54.0):
 * - perf_analyzer stamps with the system clock, ns since the Unix epoch: the first request's 1761862846976018668 ns
 *   is 2025-10-30T22:20:46.976Z (1,761,862,846 s after 1970-01-01), the run's start;
 * - GenAI-Perf counts output tokens with its client tokenizer (input_config.tokenizer, gpt2 in those files), a
 *   count the export does not keep: the output-length and throughput rows cannot be recomputed from usage;
 * - a non-streaming answer arrives in one response: no time between tokens, so its ITL is not 0 but absent.
 */
const T0 = 1761862846976018668n;
const MS = 1_000_000n;
const body = (i: number) =>
  JSON.stringify({
    id: `c${i}`,
    object: "chat.completion",
    choices: [{index: 0, message: {role: "assistant", content: `answer ${i}`}, finish_reason: "stop"}],
    usage: {prompt_tokens: 12, completion_tokens: 7, total_tokens: 19}
  });
/** Exact JSON of epoch-ns integers beyond 2^53: written as text, not through Number. */
const exportText = (t0: bigint) =>
  `{"service_kind":"openai","endpoint":"v1/chat/completions","experiments":[{"experiment":{"mode":"concurrency","value":1},"requests":[${[
    0, 1, 2, 3, 4
  ]
    .map((i) => {
      const sent = t0 + BigInt(i) * 1000n * MS;
      const payload = JSON.stringify(JSON.stringify({model: "m", messages: [], stream: false, max_tokens: 7}));
      return `{"timestamp":${sent},"request_inputs":{"payload":${payload}},"response_timestamps":[${sent + 300n * MS}],"response_outputs":[{"response":${JSON.stringify(body(i))}}]}`;
    })
    .join(",")}]}]}`;
const summary = JSON.stringify({
  request_latency: {unit: "ms", avg: 300, p50: 300, p99: 300},
  output_sequence_length: {unit: "tokens", avg: 8, p50: 8, p99: 8},
  output_token_throughput: {unit: "tokens/sec", avg: 9.5},
  input_config: {tokenizer: "gpt2"}
});

describe("GenAI-Perf: the run's clock and its token counts", () => {
  it("takes the run's start from perf_analyzer's epoch-ns timestamps, not from the file's date", async () => {
    const {run} = await importAndAnalyzeTexts("genai-perf", [{name: "profile_export.json", text: exportText(T0)}]);
    expect(run.startedAt).toBe("2025-10-30T22:20:46.976Z");
    expect(run.clock).toBe("wall");
    // a steady clock's time since boot (here 1 s) names no date
    const boot = await importAndAnalyzeTexts("genai-perf", [
      {name: "profile_export.json", text: exportText(MS * 1000n)}
    ]);
    expect(boot.run.startedAt).toBeNull();
    expect(boot.run.clock).toBe("monotonic");
  });

  it("does not recompute GenAI-Perf's tokenizer counts from the server's usage, and gives a non-streamed run no ITL", async () => {
    const {report} = await importAndAnalyzeTexts("genai-perf", [
      {name: "profile_export.json", text: exportText(T0)},
      {name: "profile_export_genai_perf.json", text: summary}
    ]);
    const rows = report.source_comparison!;
    const row = (m: string) => rows.find((r) => r.metric === m)!;
    for (const m of ["output_sequence_length.avg", "output_sequence_length.p99", "output_token_throughput.avg"]) {
      expect(row(m).recomputed, m).toBeNull();
      expect(row(m).finding, m).toBe(false);
      expect(row(m).note, m).toMatch(/GenAI-Perf counts output tokens with its client tokenizer \(gpt2\)/);
    }
    // the file reports no ITL for a non-streaming run; ours is absent too, with why (it was 0 ms)
    expect(row("inter_token_latency.avg").recomputed).toBeNull();
    expect(row("inter_token_latency.avg").note).toMatch(/non-streaming: each answer arrived in one response/);
    // the times are recomputed: 300 ms each
    expect(row("request_latency.avg").recomputed).toBe(300);
  });
});
