import {describe, expect, it} from "vitest";

import {compareSpec, SPEC_MESSAGE_IDS, SPEC_RULES, type SpecRun} from "../../../src/analysis/compare/spec.ts";
import type {SpecDecodeBlock} from "../../../src/analysis/metrics/specBlock.ts";
import type {QualityRecord} from "../../../src/analysis/schema/records.ts";
import {en} from "../../../src/i18n/en.ts";
import {zh} from "../../../src/i18n/zh.ts";

const summary = (p50: number) => ({
  n: 20,
  mean: p50,
  std: 0,
  min: p50,
  max: p50,
  p50,
  p90: p50,
  p95: p50,
  p99: p50,
  method: "nearest-rank" as const,
  withheld: {}
});

interface RunSpec {
  bundle: string;
  decode: number;
  itl?: number;
  ttft: number;
  maxTokens?: number | null;
  prompt?: number;
  out?: number;
  answers?: string[];
  pass?: boolean[];
  spec?: SpecDecodeBlock;
}

const answer = (i: number, response: string, pass: boolean): QualityRecord => ({
  seq: i,
  qualityVersion: "3",
  caseId: "gsm8k",
  scorer: "gsm8k",
  itemId: `item-${i}`,
  requestId: null,
  point: null,
  tier: null,
  promptDigest: null,
  response,
  extracted: null,
  expected: null,
  verdict: pass ? "pass" : "fail",
  reason: null,
  details: {repeat: 0}
});

/** A report reduced to what compareSpec reads, with one load point "concurrency-1". */
function run(r: RunSpec): SpecRun {
  const maxTokens = r.maxTokens === undefined ? 1024 : r.maxTokens;
  return {
    bundle: r.bundle,
    measure_version: "4",
    verdict: "VALID",
    gates: [{id: "G6", status: "pass"}] as SpecRun["gates"],
    meta: {
      model: "m",
      workloadKey: "w",
      workload: {prompt_tokens: r.prompt ?? 128, max_tokens: maxTokens, ignore_eos: true, temperature: 0}
    },
    quality: (r.answers ?? []).map((a, i) => answer(i, a, r.pass?.[i] ?? true)),
    load_points: [
      {
        id: "concurrency-1",
        metrics: {
          decode_tok_s: summary(r.decode),
          itl_ms: summary(r.itl ?? 1000 / r.decode),
          ttft_ms: summary(r.ttft),
          input_tokens: summary(r.prompt ?? 128),
          ...(r.out === undefined && maxTokens === null ? {} : {output_tokens: summary(r.out ?? maxTokens!)}),
          tokens_per_event: summary(1)
        },
        ...(r.spec === undefined ? {} : {spec_decode: r.spec})
      }
    ] as unknown as SpecRun["load_points"]
  };
}

const ids = (msgs: {id: string}[]) => msgs.map((m) => m.id);
const same = (n: number, text = "a") => Array.from({length: n}, (_, i) => `${text}${i}`);

describe("compareSpec: speculative decoding on vs off", () => {
  it("long outputs, short prompts: judged on decode speed; TTFT's rise reported as expected", () => {
    const c = compareSpec(run({bundle: "on", decode: 60, ttft: 300}), run({bundle: "off", decode: 50, ttft: 200}));
    const p = c.points[0]!;
    expect(p.fit).toBe(true);
    // by hand: (60 − 50) / 50 = +20 % > 5 %: faster; TTFT (300 − 200) / 200 = +50 %
    expect(p.decode.relPct).toBeCloseTo(20, 12);
    expect(p.reading).toBe("faster");
    expect(p.ttft).toMatchObject({relPct: 50, expected: true});
    expect(p.messages).toContainEqual({id: "specTtftExpected", params: {pct: 50}});
    expect(ids(c.messages)).toContain("specTotalThroughputNotUsed");
    expect(p.collapse).toEqual({collapsed: false, ratio: 1.2});
  });

  it("max_tokens < 512 or long prompts: unfit to judge, whatever the speeds", () => {
    const short = compareSpec(
      run({bundle: "on", decode: 90, ttft: 1, maxTokens: 256}),
      run({bundle: "off", decode: 50, ttft: 1, maxTokens: 256})
    );
    expect(short.points[0]!.reading).toBe("unfit_to_judge");
    expect(short.points[0]!.messages[0]).toEqual({id: "specUnfitShortOutput", params: {tokens: 256, min: 512}});
    // exactly 512 is long enough; outputs that stop early (EOS at 300) are not
    expect(
      compareSpec(
        run({bundle: "on", decode: 90, ttft: 1, maxTokens: 512}),
        run({bundle: "off", decode: 50, ttft: 1, maxTokens: 512})
      ).points[0]!.fit
    ).toBe(true);
    expect(
      compareSpec(
        run({bundle: "on", decode: 90, ttft: 1, out: 300}),
        run({bundle: "off", decode: 50, ttft: 1, out: 300})
      ).points[0]!.fit
    ).toBe(false);
    const long = compareSpec(
      run({bundle: "on", decode: 90, ttft: 1, prompt: 4096}),
      run({bundle: "off", decode: 50, ttft: 1, prompt: 4096})
    );
    expect(ids(long.points[0]!.messages)).toContain("specUnfitLongPrompt");
    expect(long.points[0]!.reading).toBe("unfit_to_judge");
    const unknown = compareSpec(
      run({bundle: "on", decode: 90, ttft: 1, maxTokens: null, out: undefined}),
      run({bundle: "off", decode: 50, ttft: 1, maxTokens: null})
    );
    expect(ids(unknown.points[0]!.messages)).toContain("specUnfitOutputUnknown");
  });

  it("the noise band: a second spec-off run widens the threshold beyond 5 %", () => {
    const on = run({bundle: "on", decode: 54, ttft: 1});
    const off = run({bundle: "off", decode: 50, ttft: 1});
    // +8 % against no noise reference: faster; against an off repeat at 45 (|45 − 50| / 50 = 10 % noise): no clear difference
    expect(compareSpec(on, off).points[0]!.reading).toBe("faster");
    const noisy = compareSpec(on, off, run({bundle: "off2", decode: 45, ttft: 1}));
    expect(noisy.points[0]!.decode.noisePct).toBeCloseTo(10, 12);
    expect(noisy.points[0]!.reading).toBe("no_clear_difference");
    expect(compareSpec(run({bundle: "on", decode: 40, ttft: 1}), off).points[0]!.reading).toBe("slower");
  });

  it("long-context collapse: spec-on decode below half of spec-off's at the same prompt length", () => {
    const at = (on: number) =>
      compareSpec(
        run({bundle: "on", decode: on, ttft: 1, prompt: 32768}),
        run({bundle: "off", decode: 30, ttft: 1, prompt: 32768})
      );
    // 14.9 / 30 = 0.497 < 0.5: collapse; 15 / 30 = 0.5 exactly: not (the rule is "below half")
    expect(at(14.9).collapse).toBe(true);
    expect(at(14.9).points[0]!.messages).toContainEqual(expect.objectContaining({id: "specCollapse"}));
    expect(at(15).collapse).toBe(false);
    expect(at(15).points[0]!.collapse.ratio).toBe(0.5);
    expect(SPEC_RULES.collapseRatio).toBe(0.5);
    // a collapse is reported although long prompts make the pair unfit to judge the gain
    expect(at(0.7).points[0]!.reading).toBe("unfit_to_judge");
    // the same ratio at a short prompt (1024 tokens or fewer) is a collapse, but not a long-context one
    const short = compareSpec(
      run({bundle: "on", decode: 14.9, ttft: 1, prompt: 1024}),
      run({bundle: "off", decode: 30, ttft: 1, prompt: 1024})
    );
    const ids = short.points[0]!.messages.map((m) => m.id);
    expect(short.collapse).toBe(true);
    expect(ids).toContain("specCollapseShortContext");
    expect(ids).not.toContain("specCollapse");
  });

  it("quality guard: differing answers beyond or within the off-vs-off noise, and the gain flag", () => {
    const off = run({bundle: "off", decode: 50, ttft: 1, answers: same(20)});
    // on vs off: 4 of 20 answers differ (20 %)
    const changed = same(20).map((a, i) => (i < 4 ? "changed" : a));
    const on = run({bundle: "on", decode: 70, ttft: 1, answers: changed});
    // off repeat: 3 of 20 differ (15 %): 20 − 15 = 5 points, not more than the 5-point margin: within the noise
    const offNoisy = run({bundle: "off2", decode: 50, ttft: 1, answers: same(20).map((a, i) => (i >= 17 ? "x" : a))});
    const within = compareSpec(on, off, offNoisy);
    expect(within.quality.onVsOff).toEqual({matched: 20, identical: 16, share: 0.8});
    expect(within.quality.offVsOff).toEqual({matched: 20, identical: 17, share: 0.85});
    expect(within.quality.status).toBe("within_noise");
    expect(within.qualityFlag).toBe(false);
    // off repeat identical to off: 20 % against 0 %: beyond; with a decode gain, flagged
    const beyond = compareSpec(on, off, run({bundle: "off2", decode: 50, ttft: 1, answers: same(20)}));
    expect(beyond.quality.status).toBe("beyond_noise");
    expect(beyond.qualityFlag).toBe(true);
    expect(ids(beyond.messages)).toContain("specGainWithChangedAnswers");
    // no off repeat: noise assumed 0, said so
    const assumed = compareSpec(on, off);
    expect(assumed.quality.noise).toBe("assumed_zero");
    expect(ids(assumed.messages)).toContain("specNoiseUnknown");
    // fewer than 10 matched answers: not evaluated
    expect(
      compareSpec(
        run({bundle: "on", decode: 70, ttft: 1, answers: same(9)}),
        run({bundle: "off", decode: 50, ttft: 1, answers: same(9)})
      ).quality.status
    ).toBe("not_evaluated");
  });

  it("scorers' pass rates of both variants; a drop beyond margin + off-vs-off gap is flagged", () => {
    const passes = (n: number) => Array.from({length: 20}, (_, i) => i < n);
    const off = run({bundle: "off", decode: 50, ttft: 1, answers: same(20), pass: passes(18)});
    const on = run({bundle: "on", decode: 70, ttft: 1, answers: same(20), pass: passes(16)});
    // 16/20 = 0.8 against 18/20 = 0.9: a 10-point drop > 5-point margin
    const c = compareSpec(on, off);
    expect(c.quality.passRate.on).toEqual({passed: 16, evaluated: 20, rate: 0.8});
    expect(c.quality.passRateDrop).toBe(true);
    expect(c.qualityFlag).toBe(true);
    // an off repeat at 16/20 too: gap 10 points, the drop is within margin + gap
    expect(
      compareSpec(on, off, run({bundle: "off2", decode: 50, ttft: 1, answers: same(20), pass: passes(16)})).quality
        .passRateDrop
    ).toBe(false);
  });

  it("acceptance rate shown beside, or not exported; not comparable runs get no verdict", () => {
    const spec: SpecDecodeBlock = {
      acceptance_rate: {value: 0.5, source: "server_counters"},
      mean_acceptance_length: {value: 2.5, source: "server_counters"},
      per_position: {value: [0.75, 0.5, 0.25], source: "server_counters"},
      counters: null,
      gauges: null,
      timings: null
    };
    const c = compareSpec(run({bundle: "on", decode: 60, ttft: 1, spec}), run({bundle: "off", decode: 50, ttft: 1}));
    expect(c.points[0]!.spec.acceptance_rate.value).toBe(0.5);
    expect(c.points[0]!.messages).toContainEqual({
      id: "specAcceptance",
      params: {rate: 50, source: "server_counters", length: 2.5}
    });
    const none = compareSpec(run({bundle: "on", decode: 60, ttft: 1}), run({bundle: "off", decode: 50, ttft: 1}));
    expect(ids(none.points[0]!.messages)).toContain("specAcceptanceNotExported");
    const other = {
      ...run({bundle: "off", decode: 50, ttft: 1}),
      meta: {...run({bundle: "off", decode: 1, ttft: 1}).meta, workloadKey: "other"}
    };
    const refused = compareSpec(run({bundle: "on", decode: 60, ttft: 1}), other);
    expect(refused.comparability.comparable).toBe(false);
    expect(refused.points).toEqual([]);
    expect(refused.messages).toContainEqual({id: "specNotComparable", params: {checks: "workload"}});
  });

  it("every message id has an English and a Chinese string with the same placeholders", () => {
    for (const id of SPEC_MESSAGE_IDS) {
      const e = (en as Record<string, string>)[id];
      const z = (zh as Record<string, string>)[id];
      expect(e, id).toBeTruthy();
      expect(z, id).toBeTruthy();
      const vars = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      expect(vars(z!), id).toEqual(vars(e!));
    }
  });
});
