import {readFileSync} from "node:fs";
import {join} from "node:path";

import {describe, expect, it} from "vitest";

import {formatPeerError, importPeer, type PeerTool} from "../../src/analysis/index.ts";
import {SYNTH} from "./helpers.ts";

/**
 * Hostile variants of result files (the importer audit): every one is refused with the file, the JSON path and
 * the value, never sealed into a bundle that then fails its own integrity gate (G1) or read as "not reported".
 */
const text = (p: string) => readFileSync(join(SYNTH, p), "utf8");
const errorsOf = (tool: PeerTool, name: string, body: string): string[] => {
  const r = importPeer(tool, [{name, text: body}]);
  return r.ok ? [] : r.errors.map(formatPeerError);
};
const json = (v: unknown) => JSON.stringify(v);

/** Two vLLM 2025 requests: r0 sent at 0 s, first token 0.1 s, end 0.2 s; r1 sent at 0.5 s, 0.2 s, 0.3 s. */
const vllm = (o: Record<string, unknown> = {}) => ({
  backend: "vllm",
  duration: 1,
  completed: 2,
  failed: 0,
  num_prompts: 2,
  request_rate: "inf",
  mean_ttft_ms: 150,
  ttfts: [0.1, 0.2],
  itls: [[0.05, 0.05], [0.1]],
  latencies: [0.2, 0.3],
  start_times: [10, 10.5],
  input_lens: [5, 5],
  output_lens: [3, 2],
  errors: ["", ""],
  ...o
});

describe("vLLM: every time becomes a record's ns exactly, in order (B3)", () => {
  it("the two requests import as they are", () => {
    expect(errorsOf("vllm", "v.json", json(vllm()))).toEqual([]);
  });

  it("a TTFT of 10^7 s is 10^16 ns, past 2^53 − 1: refused at its path with its value", () => {
    expect(errorsOf("vllm", "v.json", json(vllm({ttfts: [0.1, 1e7]})))).toEqual([
      "v.json: $.ttfts[1]: expected a time to first token that a record holds exactly: at most 2^53 − 1 ns (about 104 days) after the run's first request, got 10000000 s"
    ]);
    expect(errorsOf("vllm", "v.json", json(vllm({ttfts: [1e308, 0.2]})))[0]).toMatch(
      /^v\.json: \$\.ttfts\[0\]: expected a time to first token that a record holds exactly: .*, got 1e\+308 s$/
    );
  });

  it("the record's time, not the value alone: sent 5·10^6 s after the first, a TTFT of 4.5·10^6 s lands at 9.5·10^15 ns", () => {
    const o = vllm({start_times: [10, 10 + 5e6], ttfts: [0.1, 4.5e6]});
    expect(errorsOf("vllm", "v.json", json(o))).toEqual([
      "v.json: $.ttfts[1]: expected a time to first token that a record holds exactly: at most 2^53 − 1 ns (about 104 days) after the run's first request, got 4500000 s"
    ]);
  });

  it("a TTFT longer than the request's latency: refused, naming both", () => {
    expect(errorsOf("vllm", "v.json", json(vllm({itls: [[], [0.1]], latencies: [0.05, 0.3]})))).toEqual([
      "v.json: $.latencies[0]: expected an end-to-end latency no earlier than a time to first token ($.ttfts[0] = 0.1 s), got 0.05 s"
    ]);
  });

  it("an inter-token gap too long for a record is named at its own place", () => {
    expect(errorsOf("vllm", "v.json", json(vllm({itls: [[0.05, 1e308], [0.1]]})))[0]).toMatch(
      /^v\.json: \$\.itls\[0\]\[1\]: expected an inter-token latency that a record holds exactly: .*, got 1e\+308 s$/
    );
  });
});

describe("vLLM: a TTFT of NaN is refused, a failed request's 0.0 is not (B6)", () => {
  it("NaN (Python's json writes it) is not an empty answer", () => {
    const body = json(vllm()).replace('"ttfts":[0.1,0.2]', '"ttfts":[NaN,0.2]');
    expect(body).toContain("NaN");
    expect(errorsOf("vllm", "v.json", body)).toEqual([
      "v.json: $.ttfts[0]: expected a time to first token in seconds (≥ 0; 0.0 where the request got none), got null (null, NaN or Infinity in the file)"
    ]);
  });

  it("a failed request's TTFT and latency of 0.0, as vLLM's client leaves them, still import", () => {
    const o = vllm({ttfts: [0.0, 0.2], itls: [[], [0.1]], latencies: [0.0, 0.3], errors: ["boom", ""], failed: 1});
    const r = importPeer("vllm", [{name: "v.json", text: json(o)}]);
    expect(r.ok).toBe(true);
    if (r.ok) expect([r.value.requests[0]!.errorMessage, r.value.requests[0]!.tEndNs]).toEqual(["boom", null]);
  });
});

describe("vLLM and LLMPerf errors read as sentences with the value (B8)", () => {
  it("a negative output length", () => {
    expect(errorsOf("vllm", "v.json", json(vllm({output_lens: [3, -5]})))).toEqual([
      "v.json: $.output_lens[1]: expected a number ≥ 0, got -5"
    ]);
  });

  it("an LLMPerf TTFT that is not a number", () => {
    const rows = JSON.parse(text("llmperf/synthetic_individual_responses.json")) as Record<string, unknown>[];
    rows[3]!.ttft_s = "abc";
    expect(errorsOf("llmperf", "x_individual_responses.json", json(rows))).toEqual([
      'x_individual_responses.json: $[3].ttft_s: expected a number, got the string "abc"'
    ]);
  });
});

describe("LLMPerf: token counts and request times (B3)", () => {
  /** TTFT 0.5 s, last token 0.1 s × 10 = 1 s, end 2 s. */
  const row = (o: Record<string, unknown> = {}) => ({
    error_code: null,
    error_msg: "",
    ttft_s: 0.5,
    end_to_end_latency_s: 2,
    inter_token_latency_s: 0.1,
    number_output_tokens: 10,
    number_input_tokens: 100,
    number_total_tokens: 110,
    request_output_throughput_token_per_s: 5,
    ...o
  });
  const name = "x_individual_responses.json";

  it("the rows import as they are", () => {
    expect(errorsOf("llmperf", name, json([row(), row()]))).toEqual([]);
  });

  it("10^30 output tokens is not a count a record holds", () => {
    expect(errorsOf("llmperf", name, json([row(), row({number_output_tokens: 1e30})]))).toEqual([
      `${name}: $[1].number_output_tokens: expected a token count (a whole number from 0 to 2^53 − 1), got 1e+30`
    ]);
  });

  it("a TTFT of 3 s in a request of 2 s", () => {
    expect(errorsOf("llmperf", name, json([row(), row({ttft_s: 3})]))).toEqual([
      `${name}: $[1].end_to_end_latency_s: expected an end-to-end latency no earlier than a time to first token ($[1].ttft_s = 3 s), got 2 s`
    ]);
  });

  it("a last token derived after the end: 0.5 s × 10 tokens = 5 s in a request of 2 s", () => {
    expect(errorsOf("llmperf", name, json([row(), row({inter_token_latency_s: 0.5})]))).toEqual([
      `${name}: $[1].end_to_end_latency_s: expected an end-to-end latency no earlier than the last token (inter_token_latency_s × number_output_tokens) ($[1].inter_token_latency_s = 5 s), got 2 s`
    ]);
  });
});

describe("GuideLLM: request times in order, statistics and totals of the right type (B3, B5)", () => {
  type G = {
    benchmarks: {
      metrics: Record<string, Record<string, Record<string, unknown>>>;
      requests: {successful: {info: {timings: Record<string, number>}}[]};
    }[];
  };
  const g = () => JSON.parse(text("guidellm/benchmarks.json")) as G;

  it("a first token 5 s before its request's start", () => {
    const o = g();
    o.benchmarks[0]!.requests.successful[1]!.info.timings.first_token_iteration = 1771999995.25;
    expect(errorsOf("guidellm", "b.json", json(o))).toEqual([
      "b.json: $.benchmarks[0].requests.successful[1].info.timings.first_token_iteration: expected a first token iteration no earlier than a request start ($.benchmarks[0].requests.successful[1].info.timings.request_start = 1772000000.2505 s), got 1771999995.25 s"
    ]);
  });

  it("a request total written as a string, a negative mean and a string percentile: each refused, not read as null", () => {
    const o = g();
    const m = o.benchmarks[0]!.metrics as Record<string, Record<string, Record<string, unknown>>>;
    (m.request_totals as Record<string, unknown>).successful = "5";
    m.time_to_first_token_ms!.successful!.mean = -1;
    (m.time_to_first_token_ms!.successful!.percentiles as Record<string, unknown>).p99 = "184.4";
    expect(errorsOf("guidellm", "b.json", json(o))).toEqual([
      "b.json: $.benchmarks[0].metrics.time_to_first_token_ms.successful.mean: expected a non-negative number, got -1",
      'b.json: $.benchmarks[0].metrics.time_to_first_token_ms.successful.percentiles.p99: expected a number, got the string "184.4"',
      'b.json: $.benchmarks[0].metrics.request_totals.successful: expected a number, got the string "5"'
    ]);
  });
});

describe("AIPerf aggregates: the same rule as vLLM's statistics (B5)", () => {
  it("a negative average, a negative count and a string percentile (later generation, top-level metrics)", () => {
    const a = JSON.parse(text("aiperf/later/profile_export_aiperf.json")) as Record<string, Record<string, unknown>>;
    a.time_to_first_token!.avg = -82.8;
    a.time_to_first_token!.p99 = "99.6";
    a.request_count!.avg = -100;
    expect(errorsOf("aiperf", "profile_export_aiperf.json", json(a))).toEqual([
      "profile_export_aiperf.json: $.time_to_first_token.avg: expected a non-negative number, got -82.8",
      'profile_export_aiperf.json: $.time_to_first_token.p99: expected a number, got the string "99.6"',
      "profile_export_aiperf.json: $.request_count.avg: expected a non-negative number, got -100"
    ]);
  });

  it("Oct 2025 aggregates under records", () => {
    const a = JSON.parse(text("aiperf/2025-10/profile_export_aiperf.json")) as {
      records: Record<string, Record<string, unknown>>;
    };
    a.records.ttft!.avg = -82.8;
    expect(errorsOf("aiperf", "profile_export_aiperf.json", json(a))).toEqual([
      "profile_export_aiperf.json: $.records.ttft.avg: expected a non-negative number, got -82.8"
    ]);
  });
});

describe("AIPerf records, GenAI-Perf and InferScope v1 requests: the same rule for times and counts (B3)", () => {
  const aiperf = text("aiperf/v0.12/profile_export.jsonl");

  it("AIPerf: a negative TTFT, a fractional output length, an acknowledgement before the request's start", () => {
    const ttft = aiperf.replace('"time_to_first_token":{"value":80.0', '"time_to_first_token":{"value":-80.0');
    expect(errorsOf("aiperf", "p.jsonl", ttft)).toEqual([
      "p.jsonl: line 1 $.metrics.time_to_first_token.value: expected a non-negative number, got -80"
    ]);
    const osl = aiperf.replace('"output_sequence_length":{"value":6,', '"output_sequence_length":{"value":6.5,');
    expect(errorsOf("aiperf", "p.jsonl", osl)).toEqual([
      "p.jsonl: line 1 $.metrics.output_sequence_length.value: expected a token count (a whole number from 0 to 2^53 − 1), got 6.5"
    ]);
    // 1 ms before request_start_ns 1785789229401769834
    const ack = aiperf.replace('"request_ack_ns":1785789229405797890', '"request_ack_ns":1785789229400769834');
    expect(errorsOf("aiperf", "p.jsonl", ack)).toEqual([
      "p.jsonl: line 1 $.metadata.request_ack_ns: expected a request acknowledgement no earlier than a request start (line 1 $.metadata.request_start_ns = 1785789229401769834 ns), got 1785789229400769834 ns"
    ]);
  });

  it("GenAI-Perf: a response 10 ms before its request was sent", () => {
    const g = text("genai-perf/profile_export.json").replace("1700000000020000000", "1699999999990000000");
    expect(errorsOf("genai-perf", "profile_export.json", g)).toEqual([
      "profile_export.json: $.experiments[0].requests[0].response_timestamps[0]: expected a response timestamp no earlier than the request timestamp ($.experiments[0].requests[0].timestamp = 1700000000000000000 ns), got 1699999999990000000 ns"
    ]);
  });

  it("InferScope v1: a first content 0.1 ms before the request started", () => {
    const dir = "inferscope-v1/results/raw/20250801T100000000000Z-abcdef12-concurrency-2-r0";
    const rows = text(`${dir}/requests.jsonl`).replace(
      '"first_content_at_ns": 5000100200000',
      '"first_content_at_ns": 5000000100000'
    );
    expect(errorsOf("inferscope-v1", "requests.jsonl", rows)).toEqual([
      "requests.jsonl: line 1 $.first_content_at_ns: expected the first content no earlier than the start time (line 1 $.started_at_ns = 5000000200000 ns), got 5000000100000 ns"
    ]);
  });
});

describe("a name given twice in one object (audit: the last value won without a word)", () => {
  it("is refused at its line, in a JSON document and in a JSON Lines file", () => {
    // "completed" written twice, 999 first: a reader keeps one of them and loses the other
    const doc = JSON.stringify(vllm(), null, 2).replace("{\n", '{\n  "completed": 999,\n');
    const line = doc.split("\n").findIndex((l, i) => i > 1 && l.startsWith('  "completed"')) + 1;
    expect(errorsOf("vllm", "v.json", doc)).toEqual([
      `v.json: line ${line} column 3: expected each name once per object: "$.completed" is given twice (a reader would keep one value and lose the other)`
    ]);
    const lines = `${json(vllm())}\n${json(vllm()).replace("{", '{"duration":1,')}\n`;
    expect(errorsOf("sglang", "s.jsonl", lines).join("\n")).toMatch(
      /s\.jsonl: line 2: expected each name once per object: "\$\.duration" is given twice/
    );
  });
});

describe("a tool's CSV export (audit: refused as 'expected valid JSON (unexpected token M)')", () => {
  it("is refused as a CSV, naming the JSON files to import instead", () => {
    // the first lines of GenAI-Perf's profile_export_genai_perf.csv
    const csv = 'Metric,avg,min,max,p99,p95,p90,p75,p50,p25\nRequest Latency (ms),"2,235.71",966.52\n';
    const [e] = errorsOf("genai-perf", "profile_export_genai_perf.csv", csv);
    expect(e).toMatch(/^profile_export_genai_perf\.csv: \$: expected a JSON or YAML result file, got CSV/);
    expect(e).toContain("GenAI-Perf: profile_export.json and profile_export_genai_perf.json");
    // a file named .csv that holds JSON is read as what it holds
    expect(errorsOf("vllm", "v.csv", json(vllm()))).toEqual([]);
  });
});
