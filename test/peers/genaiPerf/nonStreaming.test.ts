import {describe, expect, it} from "vitest";

import {summaryOf} from "../../support/bundle.ts";
import {importAndAnalyzeTexts} from "../helpers.ts";

/**
 * GenAI-Perf's profile_export.json of a non-streaming run through a hosted API (perf_analyzer's OpenAI
 * service kind with `stream: false`): each request has one response, a whole chat.completion body, which
 * some providers precede with keep-alive whitespace while the answer is being generated. Built here from
 * perf_analyzer's export layout (experiments[].requests[] with timestamp, request_inputs.payload,
 * response_timestamps[], response_outputs[].response); times in ns on perf_analyzer's clock.
 */
const S = 1_000_000_000;
const durationsMs = [500, 300, 400, 600, 200];
const body = (i: number) =>
  JSON.stringify({
    id: `chatcmpl-${i}`,
    object: "chat.completion",
    model: "m",
    choices: [{index: 0, message: {role: "assistant", content: `answer ${i}`}, finish_reason: "stop"}],
    usage: {prompt_tokens: 12, completion_tokens: 7, total_tokens: 19}
  });
const exportJson = JSON.stringify({
  service_kind: "openai",
  endpoint: "v1/chat/completions",
  experiments: [
    {
      experiment: {mode: "concurrency", value: 1},
      requests: durationsMs.map((ms, i) => ({
        timestamp: (i + 1) * S,
        request_inputs: {
          payload: JSON.stringify({model: "m", messages: [{role: "user", content: "hi"}], stream: false, max_tokens: 7})
        },
        response_timestamps: [(i + 1) * S + ms * 1_000_000],
        // keep-alive whitespace before the JSON: blank lines on one request, spaces and newlines on another
        response_outputs: [{response: (i === 0 ? "\n\n\n" : i === 1 ? " \n \n" : "") + body(i)}]
      }))
    }
  ]
});

describe("GenAI-Perf non-streaming export", () => {
  it("reads a whole answer after keep-alive whitespace as a success whose TTFT is its E2E", async () => {
    const {run, report} = await importAndAnalyzeTexts("auto", [{name: "profile_export.json", text: exportJson}]);
    expect(run.tool).toBe("genai-perf");
    const p = report.load_points[0]!;
    expect([p.n, p.n_success]).toEqual([5, 5]);
    expect(run.requests.map((r) => r.events.map((e) => e[2]))).toEqual(durationsMs.map(() => ["content"]));
    // one response each: TTFT = E2E = the response time; median of 200, 300, 400, 500, 600 ms = 400 ms
    expect(summaryOf(report, "ttft_ms").p50).toBe(400);
    expect(summaryOf(report, "e2e_ms").p50).toBe(400);
    // 7 tokens in one response have no decode span: no ITL, no decode speed (unknown, not 0)
    expect(summaryOf(report, "itl_ms").n).toBe(0);
    expect(summaryOf(report, "decode_tok_s").p50).toBeNull();
    expect(
      run.notes.some((n) => /5 of 5 requests asked for a non-streaming answer.*TTFT equals their E2E/.test(n))
    ).toBe(true);
  });
});
