import {describe, expect, it} from "vitest";

import {RunConfigSpec} from "../../../src/analysis/schema/config.ts";

const base = {target: {base_url: "http://127.0.0.1:1/v1", model: "m"}};
const issues = (c: Record<string, unknown>): string[] => {
  const r = RunConfigSpec.safeParse({...base, ...c});
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
};

describe("workload sources in the run config", () => {
  it("accepts each source with its load mode", () => {
    expect(
      issues({
        workload: {source: {kind: "shared_prefix", groups: 4, prefix_tokens: 200}},
        load: {mode: "rate", values: [2]}
      })
    ).toEqual([]);
    expect(
      issues({
        workload: {source: {kind: "sessions", turns: 4}},
        load: {mode: "concurrency", values: [2], requests: 8, warmup: 4}
      })
    ).toEqual([]);
    expect(
      issues({workload: {source: {kind: "trace", path: "t.jsonl"}}, load: {mode: "trace", values: [1], requests: 10}})
    ).toEqual([]);
    expect(
      issues({
        workload: {source: {kind: "dataset", path: "d.jsonl", format: "jsonl", output_tokens: {dist: "empirical"}}},
        load: {mode: "concurrency", values: [1]}
      })
    ).toEqual([]);
    expect(
      issues({workload: {input_tokens: {dist: "uniform", min: 10, max: 20}}, load: {mode: "concurrency", values: [1]}})
    ).toEqual([]);
  });

  it("names the path of each rule a config breaks", () => {
    expect(issues({load: {mode: "trace", values: [1]}})).toEqual([
      "load.mode: mode trace replays workload.source: set source kind trace (with its path)"
    ]);
    expect(issues({workload: {source: {kind: "trace", path: "t"}}, load: [{mode: "rate", values: [1]}]})).toEqual([
      "load.0.mode: a trace sets its own arrivals: use mode trace (the value is the replay speed), not rate"
    ]);
    expect(
      issues({
        workload: {source: {kind: "sessions", turns: 3}},
        load: {mode: "rate", values: [1], requests: 9, warmup: 0}
      })
    ).toEqual(["load.mode: sessions run in closed loop: mode concurrency (the value is the number of users)"]);
    // the default warmup (8) is not a multiple of 3
    expect(
      issues({workload: {source: {kind: "sessions", turns: 3}}, load: {mode: "concurrency", values: [1], requests: 9}})
    ).toEqual(["load.warmup: warmup 8 is not a multiple of turns 3: a conversation is never cut"]);
    expect(
      issues({
        workload: {source: {kind: "sessions", turns: 2}},
        load: {mode: "concurrency", values: [1], duration_s: 5}
      })
    ).toEqual(["load.duration_s: sessions need requests (a whole number of conversations), not duration_s"]);
    // an embedding answers no turn: a conversation cannot go on (on /completions it is sent as lines)
    expect(
      issues({
        target: {...base.target, endpoint: "embeddings"},
        workload: {source: {kind: "sessions", turns: 2}},
        load: {mode: "concurrency", values: [1], requests: 4, warmup: 0}
      })
    ).toEqual(["workload.source.kind: sessions are conversations: an embeddings endpoint answers no turn"]);
    expect(
      issues({
        workload: {prompt_text: "hi", source: {kind: "shared_prefix", groups: 1, prefix_tokens: 9}},
        load: {mode: "concurrency", values: [1]}
      })
    ).toEqual([
      "workload.prompt_text: prompt_text applies to synthetic prompts; with source shared_prefix, set lengths in the source"
    ]);
    expect(issues({workload: {output_tokens: {dist: "empirical"}}, load: {mode: "concurrency", values: [1]}})).toEqual([
      "workload.output_tokens: empirical lengths come from a dataset: use source kind dataset"
    ]);
    expect(
      issues({
        workload: {source: {kind: "dataset", path: "c.txt", format: "text", output_tokens: {dist: "empirical"}}},
        load: {mode: "concurrency", values: [1]}
      })
    ).toEqual(["workload.source.output_tokens: a text corpus has no answer lengths: give a distribution"]);
    expect(
      issues({
        workload: {source: {kind: "dataset", path: "d.jsonl", format: "jsonl", input_tokens: 40}},
        load: {mode: "concurrency", values: [1]}
      })
    ).toEqual([
      "workload.source.input_tokens: input_tokens applies to the text format only (sharegpt and jsonl prompts are sent as they are)"
    ]);
    expect(
      issues({workload: {input_tokens: {dist: "uniform", min: 30, max: 20}}, load: {mode: "concurrency", values: [1]}})
    ).toEqual(["workload.input_tokens: uniform: min must not exceed max"]);
  });
});
