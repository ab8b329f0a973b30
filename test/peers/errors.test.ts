import {readFileSync} from "node:fs";
import {join} from "node:path";

import {describe, expect, it, vi} from "vitest";

import {formatPeerError, importPeer, PEER_TOOLS, type PeerFile} from "../../src/analysis/index.ts";
import {PEER_FORMATS} from "../../src/analysis/peers/registry.ts";
import {readInputs, SYNTH} from "./helpers.ts";

const text = (p: string) => readFileSync(join(SYNTH, p), "utf8");
const errorsOf = (tool: Parameters<typeof importPeer>[0], files: PeerFile[]): string[] => {
  const r = importPeer(tool, files);
  expect(r.ok, "the import should fail").toBe(false);
  return r.ok ? [] : r.errors.map(formatPeerError);
};

describe("malformed and truncated input: an error naming the file, the place in it and what was expected", () => {
  it("a truncated JSON file: the position and 'valid JSON'", () => {
    const v = text("vllm/vllm-2024-detailed.json");
    expect(errorsOf("auto", [{name: "run.json", text: v.slice(0, Math.floor(v.length / 2))}])).toEqual([
      expect.stringMatching(
        /^run\.json: end of file \(line \d+ column \d+\): expected valid JSON \(unexpected end of JSON input\)$/
      )
    ]);
  });

  it("a JSON Lines file whose last line was cut: that line, and that it looks truncated", () => {
    const a = text("aiperf/2025-10/profile_export.jsonl");
    const [e] = errorsOf("aiperf", [{name: "profile_export.jsonl", text: a.slice(0, a.length - 40)}]);
    expect(e).toMatch(
      /^profile_export\.jsonl: line 6: expected a complete JSON value per line \(.*the last line looks truncated\)$/
    );
  });

  it("a field of the wrong type: its JSON path", () => {
    const v = text("vllm/vllm-2024-detailed.json").replace('"duration": 1.5', '"duration": "1.5s"');
    expect(errorsOf("vllm", [{name: "run.json", text: v}])).toEqual([
      'run.json: $.duration: expected the run duration in seconds (a number), got the string "1.5s"'
    ]);
  });

  it("a string or a negative number where vLLM writes a statistic, a count or a time: refused with its key and value", () => {
    const v = text("vllm/vllm-2024-detailed.json");
    const swapped = v.replace('"mean_ttft_ms": 148.9725', '"mean_ttft_ms": "148.9725"');
    expect(errorsOf("vllm", [{name: "run.json", text: swapped}])).toEqual([
      'run.json: $.mean_ttft_ms: expected a number, got the string "148.9725"'
    ]);
    const negative = v
      .replace('"median_ttft_ms": 152.995', '"median_ttft_ms": -152.995')
      .replace('"completed": 6', '"completed": -6')
      .replace('"output_throughput": 38.666666666666664', '"output_throughput": -1');
    expect(errorsOf("vllm", [{name: "run.json", text: negative}])).toEqual([
      // in the file's key order
      "run.json: $.completed: expected the count of completed requests (≥ 0), got -6",
      "run.json: $.output_throughput: expected a non-negative number, got -1",
      "run.json: $.median_ttft_ms: expected a non-negative number, got -152.995"
    ]);
    const o = JSON.parse(v) as {ttfts: number[]};
    o.ttfts[2] = -0.1;
    expect(errorsOf("vllm", [{name: "run.json", text: JSON.stringify(o)}])).toEqual([
      "run.json: $.ttfts[2]: expected a time to first token in seconds (≥ 0), got -0.1"
    ]);
    // Python's NaN (a statistic of no values) is unknown, not an error
    const nan = v.replace('"std_ttft_ms": 33.769612670515876', '"std_ttft_ms": NaN');
    expect(importPeer("vllm", [{name: "run.json", text: nan}]).ok).toBe(true);
  });

  it("a negative time of an LLMPerf request: the record's index and the value", () => {
    const rows = JSON.parse(text("llmperf/synthetic_individual_responses.json")) as Record<string, unknown>[];
    rows[1]!.ttft_s = -0.5;
    rows[2]!.number_output_tokens = "-3";
    expect(errorsOf("llmperf", [{name: "x_individual_responses.json", text: JSON.stringify(rows)}])).toEqual([
      "x_individual_responses.json: $[1].ttft_s: expected a non-negative number, got -0.5",
      "x_individual_responses.json: $[2].number_output_tokens: expected a token count (a whole number from 0 to 2^53 − 1), got -3"
    ]);
  });

  it("a document that is not an llm-d v0.2 report: what it holds instead", () => {
    expect(errorsOf("llmd-report", [{name: "r.json", text: JSON.stringify({version: "0.1", scenario: {}})}])).toEqual([
      'r.json: $: expected an llm-d Benchmark Report v0.2/v0.2.1 (version, run, results), got version "0.1"'
    ]);
    expect(errorsOf("llmd-report", [{name: "r.json", text: "[1, 2]"}])).toEqual([
      "r.json: $: expected an llm-d Benchmark Report v0.2/v0.2.1 (version, run, results), got an array of 2"
    ]);
  });

  it("per-request arrays that are not index-aligned", () => {
    const o = JSON.parse(text("vllm/vllm-2024-detailed.json")) as {output_lens: number[]};
    o.output_lens.pop();
    expect(errorsOf("vllm", [{name: "run.json", text: JSON.stringify(o)}])).toEqual([
      "run.json: $.output_lens: expected an array of 6 entries (one per request, index-aligned with ttfts), got 5"
    ]);
  });

  it("a JSON Lines record that breaks the schema: line and path inside the record", () => {
    const lines = text("aiperf/2025-10/profile_export.jsonl").split("\n");
    lines[2] = lines[2]!.replace('"metrics":', '"metrix":');
    expect(errorsOf("aiperf", [{name: "p.jsonl", text: lines.join("\n")}])).toEqual([
      "p.jsonl: line 3 $.metrics: expected an object, got nothing (absent)"
    ]);
  });

  it("a GuideLLM request without timings: the request's path", () => {
    const g = JSON.parse(text("guidellm/benchmarks.json")) as {
      benchmarks: {requests: {successful: {info: {timings: Record<string, unknown>}}[]}}[];
    };
    delete g.benchmarks[0]!.requests.successful[1]!.info.timings.request_start;
    const [e] = errorsOf("auto", [{name: "b.json", text: JSON.stringify(g)}]);
    expect(e).toMatch(/^b\.json: \$\.benchmarks\[0\]\.requests\.successful\[1\]: expected per-request timings/);
  });

  it("auto detection that fails: one line naming every tool and what the file is instead", () => {
    const [e] = errorsOf("auto", [{name: "notes.json", text: '{"hello": 1, "bye\\nthere": [2]}'}]);
    expect(e).not.toContain("\n");
    expect(e).toMatch(/^notes\.json: \$: expected a result file of vllm, sglang, .* \(detected by shape, not by name/);
    for (const t of PEER_TOOLS) expect(e).toContain(t);
    // the keys it saw, quoted (a newline in a key stays escaped)
    expect(e).toContain('got JSON: an object with keys "hello", "bye\\nthere"');
    expect(errorsOf("auto", [{name: "a.json", text: "[1, 2, 3]"}])[0]).toContain(
      "got JSON: an array of 3 values, the first a number"
    );
  });

  it("files of different tools are refused together; a named tool rejects another tool's file", () => {
    expect(
      errorsOf("auto", [
        {name: "v.json", text: text("vllm/vllm-2024-detailed.json")},
        {name: "b.json", text: text("guidellm/benchmarks.json")}
      ])[0]
    ).toMatch(/fit different tools \(vllm: v\.json; guidellm: b\.json\)/);
    expect(errorsOf("guidellm", [{name: "v.json", text: text("vllm/vllm-2024-detailed.json")}])[0]).toMatch(
      /^v\.json: \$: expected one GuideLLM benchmarks\.json/
    );
    expect(errorsOf("auto", [{name: "e.json", text: ""}])).toEqual([
      "e.json: $: expected a JSON document, got an empty file"
    ]);
  });
});

describe("hostile input: one line naming the file, the place and what was expected", () => {
  const one = (f: PeerFile): string => {
    const e = errorsOf("auto", [f]);
    expect(e).toHaveLength(1);
    // no raw control characters reach the terminal
    expect([...e[0]!].every((c) => c.charCodeAt(0) >= 0x20)).toBe(true);
    return e[0]!;
  };
  it("binary data: the first NUL byte's line and column", () => {
    expect(one({name: "x.json", text: '{"a":\n 1\u0000\u0001\u00ff}'})).toBe(
      "x.json: line 2 column 3: expected a text result file (JSON, JSON Lines or YAML), got binary data (a NUL byte)"
    );
    // undecodable bytes (U+FFFD from the UTF-8 decoder) without a NUL are binary too
    expect(one({name: "y.json", text: "\ufffd".repeat(50) + "{}"})).toMatch(/^y\.json: line 1 column 1: .*binary data/);
    // a few replacement characters inside a long text are not (a generated text may hold one)
    const r = importPeer("auto", [{name: "z.json", text: `{"t": "${"a".repeat(200)}\ufffd"}`}]);
    expect(r.ok ? "" : r.errors[0]!.expected).not.toMatch(/binary/);
  });
  it("deep nesting: refused at the bracket that opens level 65, also inside a JSON Lines file", () => {
    // 64 levels are read (then rejected by shape); the 65th bracket is column 65 of line 1
    expect(one({name: "ok.json", text: "[".repeat(64) + "]".repeat(64)})).toMatch(
      /^ok\.json: \$: expected a result file/
    );
    expect(one({name: "d.json", text: "[".repeat(100_000) + "]".repeat(100_000)})).toBe(
      "d.json: line 1 column 65: expected at most 64 levels of nested arrays and objects; level 65 opens here"
    );
    const brackets = '{"a":' + "[".repeat(70) + "]".repeat(70) + "}";
    expect(errorsOf("auto", [{name: "l.jsonl", text: `{"x": 1}\n${brackets}\n`}])).toEqual([
      "l.jsonl: line 2: expected at most 64 levels of nested arrays and objects; level 65 opens here"
    ]);
  });
  it("a truncated file says where it ends; garbage in a string does not count as structure", () => {
    expect(one({name: "t.json", text: '{"a": [1, 2'})).toBe(
      "t.json: end of file (line 1 column 12): expected valid JSON (expected ',' or ']' after array element; the file ends inside an unclosed value: truncated?)"
    );
    // brackets, NaN and a NUL escape inside strings are text, not structure
    const r = importPeer("auto", [{name: "s.json", text: `{"k": "${"[".repeat(100)} NaN \\u0000"}`}]);
    expect(r.ok ? "" : r.errors[0]!.expected).toMatch(/^a result file of/);
  });
  it("an unexpected token is placed at its line and column, which V8's own message does not give", () => {
    // line 3 is '  "b": yes': the y is its 8th character
    expect(one({name: "u.json", text: '{\n  "a": 1,\n  "b": yes\n}'})).toMatch(/^u\.json: line 3 column 8: /);
  });
  it("a JSON Lines file with many bad lines: ten shown, the rest counted", () => {
    const lines = ['{"a": 1}', ...Array.from({length: 25}, (_, i) => `{"b": ${i}`)].join("\n");
    const e = errorsOf("auto", [{name: "m.jsonl", text: lines}]);
    expect(e).toHaveLength(11);
    expect(e[0]).toMatch(/^m\.jsonl: line 2: expected a complete JSON value per line/);
    expect(e[10]).toBe("m.jsonl: 15 more lines: expected a complete JSON value per line (not shown)");
  });
  it("the parser's excerpt of the input never reaches the message", () => {
    const e = one({name: "g.json", text: "zz\u0007garbage"});
    expect(e).toBe("g.json: line 1 column 1: expected valid JSON (unexpected token 'z')");
  });
});

describe("never a crash", () => {
  const sets = [
    ["vllm/vllm-2024-detailed.json"],
    ["vllm/vllm-2025-detailed.json"],
    ["sglang/sglang-bench-serving.jsonl"],
    ["genai-perf/profile_export.json"],
    ["aiperf/later/profile_export.jsonl"],
    ["guidellm/benchmarks.json"],
    ["llmperf/synthetic_individual_responses.json"],
    ["inferscope-v1/results/raw/20250801T100000000000Z-abcdef12-concurrency-2-r0/requests.jsonl"]
  ];
  it("truncations and value swaps of every format give a result or located errors, never an exception", () => {
    let failures = 0;
    for (const [p] of sets) {
      const full = text(p!);
      const variants: string[] = [];
      for (let k = 1; k < 24; k++) variants.push(full.slice(0, Math.floor((full.length * k) / 24)));
      variants.push(
        full.replace(/\d+\.\d+/g, '"x"'),
        full.replace(/\[/g, "{").replace(/\]/g, "}"),
        full.replace(/null/g, "[]"),
        full.replace(/"[a-z_]+":/g, '"k":')
      );
      for (const v of variants)
        for (const tool of ["auto", ...PEER_TOOLS] as const) {
          const r = importPeer(tool, [{name: "f.json", text: v}]);
          if (!r.ok) {
            failures++;
            for (const e of r.errors) {
              expect(e.file).toBe("f.json");
              expect(e.path.length).toBeGreaterThan(0);
              expect(e.expected.length).toBeGreaterThan(0);
            }
          }
        }
    }
    expect(failures).toBeGreaterThan(100);
  });

  it("an importer that throws on a shape it was not written for: a located error naming the tool, not an exception", () => {
    // a stand-in for a new version of a known format that passes detection but breaks the importer
    const guidellm = PEER_FORMATS.guidellm as {import: (docs: never) => unknown};
    const spy = vi.spyOn(guidellm, "import").mockImplementation(() => {
      throw new TypeError("Cannot read properties of undefined (reading 'requests')");
    });
    try {
      const r = importPeer("guidellm", [{name: "benchmarks.json", text: text("guidellm/benchmarks.json")}]);
      expect(r.ok).toBe(false);
      expect(r.ok ? [] : r.errors.map(formatPeerError)).toEqual([
        "benchmarks.json: $: expected a guidellm result this importer can read; it stopped at: Cannot read properties of undefined (reading 'requests') (a shape or version it does not know yet: please report it with the file)"
      ]);
    } finally {
      spy.mockRestore();
    }
  });

  it("shape, not file name: renamed files are still recognised", () => {
    const inputs = readInputs([join(SYNTH, "llmperf")]).map((f, i) => ({name: `download (${i}).txt`, text: f.text}));
    const r = importPeer("auto", inputs);
    expect(r.ok && r.value.tool).toBe("llmperf");
  });

  it("a byte-order mark before JSON or JSON Lines is not part of the document (issue 11 item 12)", () => {
    for (const [tool, path] of [
      ["vllm", "vllm/vllm-2025-detailed.json"],
      ["aiperf", "aiperf/2025-10/profile_export.jsonl"]
    ] as const) {
      const plain = importPeer(tool, [{name: "f", text: text(path)}]);
      const bom = importPeer(tool, [{name: "f", text: `\uFEFF${text(path)}`}]);
      expect(bom.ok, bom.ok ? "" : bom.errors.map(formatPeerError).join("\n")).toBe(true);
      expect(bom.ok && plain.ok && bom.value.requests.length).toBe(plain.ok ? plain.value.requests.length : -1);
      expect(bom.ok && bom.value.requests.length).toBeGreaterThan(0);
    }
  });

  it("extra keys are tolerated", () => {
    const o = JSON.parse(text("vllm/vllm-2025-detailed.json")) as Record<string, unknown>;
    o.some_future_field = {nested: [1, 2]};
    o.mean_client_queue_time_ms = 1.2;
    const r = importPeer("auto", [{name: "x.json", text: JSON.stringify(o)}]);
    expect(r.ok).toBe(true);
  });
});
