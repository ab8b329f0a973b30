import {readFileSync} from "node:fs";

import {describe, expect, it} from "vitest";

import {importPeer} from "../../../src/analysis/index.ts";
import {f} from "../synthetic.ts";

/**
 * GuideLLM ≥ 0.5 writes each request's own derived numbers (GenerativeRequestStats: request_start_time,
 * request_end_time, time_to_first_token_ms, …) beside the info.timings InferScope reads. The audit edited them
 * in real files (a TTFT of −47 ms, a start time as a string, an end 10 s before the start): each imported with
 * exit 0 and no word. The fixture's first request: request_start 1786370601.483929, first_token_iteration
 * 1786370601.5137289, so (first − start) × 1000 = 29.7999 ms, as its time_to_first_token_ms says.
 */
const PATH = "guidellm/report-v2/benchmarks.json";
const REQ = "$.benchmarks[0].requests.successful[0]";

function importEdited(edit: (r: Record<string, unknown>) => void) {
  const doc = JSON.parse(readFileSync(f(PATH), "utf8")) as {
    benchmarks: {requests: {successful: Record<string, unknown>[]}}[];
  };
  edit(doc.benchmarks[0]!.requests.successful[0]!);
  return importPeer("guidellm", [{name: "benchmarks.json", text: JSON.stringify(doc)}]);
}

describe("GuideLLM's own per-request numbers are checked, not skipped", () => {
  it("a negative time, a string, or an end before the start is refused at its path", () => {
    const neg = importEdited((r) => (r.time_to_first_token_ms = -47));
    expect(neg.ok || neg.errors).toEqual([
      {file: "benchmarks.json", path: `${REQ}.time_to_first_token_ms`, expected: "a non-negative number, got -47"}
    ]);
    const str = importEdited((r) => (r.request_start_time = String(r.request_start_time)));
    expect(str.ok || str.errors[0]!.expected).toBe('a number, got the string "1786370601.483929"');
    const back = importEdited((r) => (r.request_end_time = (r.request_start_time as number) - 10));
    expect(back.ok || back.errors[0]).toEqual({
      file: "benchmarks.json",
      path: `${REQ}.request_end_time`,
      expected: "a request end no earlier than its request_start_time (1786370601.483929), got 1786370591.483929"
    });
  });

  it("a TTFT that disagrees with the request's own timings is warned about, and the timings are read", () => {
    const r = importEdited((q) => (q.time_to_first_token_ms = 79.8));
    expect(r.ok).toBe(true);
    expect(r.ok && r.value.warnings).toEqual([
      `1 request(s) state a time_to_first_token_ms that disagrees with their own timings by more than 1 ms (first: ${REQ}: 79.8 ms stated, 29.8 ms from info.timings): the file was changed after GuideLLM wrote it; InferScope reads the timings`
    ]);
    const plain = importEdited(() => undefined);
    expect(plain.ok && (plain.value.warnings ?? [])).toEqual([]);
  });
});
