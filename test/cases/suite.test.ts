import {cpSync, readFileSync, rmSync, writeFileSync} from "node:fs";
import {join} from "node:path";

import {afterAll, beforeAll, describe, expect, it} from "vitest";

import type {CaseQuality, Report} from "../../src/analysis/index.ts";
import type {CaseAnswer, ClientRecord, QualityRecord, RequestRecord} from "../../src/analysis/schema/index.ts";
import {defaultCollectDeps} from "../../collector/commands/collect.ts";
import {passphrase} from "../../collector/cases/needle.ts";
import {conversation} from "../../collector/cases/performance.ts";
import {startFakeServer, type FakeServer} from "../../collector/fake/index.ts";
import {sealCrashedBundle} from "../../collector/bundle/recover.ts";
import {DRAFT_FILE} from "../../collector/bundle/finish.ts";
import {collect} from "../../collector/run/collect.ts";
import {analyzeBundle} from "../../src/analysis/index.ts";
import {fsBundle} from "../../src/io/fsBundle.ts";
import {tempDir, testConfig, testEffects} from "../collector/helpers.ts";
import {realFiles, realClock} from "../../collector/effects.ts";

/**
 * Every case and scorer end to end against the fake server with scripted right and wrong answers: the
 * bundle's request and quality records, and the analyzer's exact rates, tiers, per-depth table and
 * per-constraint results, including truncated and unparseable answers and scoring under load.
 */
const SAMPLE = join(import.meta.dirname, "..", "fixtures", "gsm8k-sample.jsonl");
const FASTER = JSON.stringify({ttftMs: 1, tokenIntervalMs: 0.2});
const SEED = 42; // the load block's default seed: it seeds the conversation's code word
const P = (i: number) => passphrase(7, i);
const words = (n: number, w = "more") => Array.from({length: n}, () => w).join(" ");
const CODE_WORD = conversation(3, SEED).codeWord;

const ANSWERS: Record<string, string> = {
  // case_10: lengths [64, 128] × depths [0, 0.5, 1] → passphrases 0..5
  [P(0)]: P(0),
  [P(1)]: "I could not find it.",
  [P(2)]: P(2),
  [P(3)]: `The passphrase is ${P(3)}.`,
  [P(4)]: P(99),
  [P(5)]: `${P(5)} ${words(40)}`, // cut at max_tokens 32: truncated, fails although the passphrase arrived
  // case_11
  "benefits of regular exercise": '{"benefits": ["energy", "sleep", "mood"]}',
  "Describe a sunrise": "Golden rays spill over the quiet hills as the sun climbs.",
  "reusable water bottle": "This durable bottle is durable and light.",
  "why backups matter": "Here is my answer:\nIn short: backups protect your data. Stay safe.",
  "describing a book": '```json\n{"title": "Dune", "year": 1965, "available": true, "authors": ["Frank Herbert"]}\n```',
  "Name four planets": "- mars\n- venus\n- earth\n- jupiter",
  "what a compiler does": `A compiler ${words(70, "translates")}.`,
  'a key "meta"': '{"meta": {"version": 2, "tags": ["a"',
  "sentences about autumn": words(300, "harvest"),
  // "why do cats purr" is not scripted: the fake server's 16 lowercase words pass both its constraints
  // GSM8K sample items 0..5 (expected 18, 3, 70000, 540, 20, 64)
  "Janet’s ducks": "She sells 9 eggs at $2.\n#### 18",
  "A robe takes": "It takes 3 bolts in total.",
  "Josh decides": "#### 70,000",
  "James decides": "#### 450",
  "Wendi feeds": `${words(60)}\n#### 20`,
  // "Kylar went" is not scripted: gibberish without a number
  // case_03 (240 units in Warehouse B; the priciest item's value is 9 × 120 = 1080)
  "stored in Warehouse B": "75 + 48 + 15 + 102 = 240\n#### 240",
  "highest unit price": "#### 1000",
  // case_06
  "How many dollars do 27 pencils cost": "#### 9",
  "Tom has 14 marbles": "He has 17 marbles.",
  "A train leaves at 09:40": "#### 215",
  "three consecutive even numbers": "#### 26",
  "divisible by 3 or by 5": "#### 46",
  // case_07: the last round recalls the code word
  "what was the code word": CODE_WORD
};

const TOOL_ANSWERS = {
  "weather like in Paris": [{name: "get_weather", arguments: '{"city": "Paris", "unit": "celsius"}'}],
  "two things at once": [
    {name: "get_weather", arguments: '{"city": "Tokyo", "unit": "celsius"}'},
    {name: "get_time", arguments: '{"timezone": "Berlin"}'}
  ]
};

const readJsonl = <T>(path: string): T[] =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as T);

let server: FakeServer;
const t = tempDir("inferscope-suite-");
let report: Report;
let dir: string;
let requests: RequestRecord[];
let quality: QualityRecord[];
let answers: CaseAnswer[];

const suiteConfig = (url: string, patch: Record<string, unknown> = {}) =>
  testConfig(url, {
    target: {
      base_url: url,
      model: "fake-model",
      headers: {"x-fake-options": FASTER},
      timeouts: {connect_ms: 2000, headers_ms: 5000, idle_ms: 3000}
    },
    // ~3 ms requests (FASTER: the suite sends hundreds): on a busy machine the client's gaps between a closed
    // loop's requests are a large share of each, so achieved load is loosened further (G5 has its own tests;
    // the fresh-clone CI saw mean 1.16 of 2 in flight)
    gates: {min_achieved_load: 0.25},
    suites: ["all", "gsm8k"],
    suite_options: {
      repeats: 2,
      long_context_tiers: [64, 128],
      prefill_tiers: [96],
      concurrency_tiers: [1, 3],
      rounds: 3,
      needle: {lengths: [64, 128], depths: [0, 0.5, 1], seed: 7},
      gsm8k: {path: SAMPLE, limit: 6, max_tokens: 40},
      quality_load: {point: "concurrency-2", suites: ["case_10_needle", "gsm8k"]}
    },
    ...patch
  } as never);

beforeAll(async () => {
  server = await startFakeServer({port: 0, options: {answers: ANSWERS, toolAnswers: TOOL_ANSWERS}});
  const outcome = await collect({
    config: suiteConfig(server.url),
    fx: testEffects(),
    ...defaultCollectDeps,
    outParent: t.dir
  });
  dir = outcome.dir;
  report = await analyzeBundle(fsBundle(dir));
  requests = readJsonl<RequestRecord>(join(dir, "requests.jsonl"));
  answers = readJsonl<CaseAnswer>(join(dir, "quality.jsonl"));
  // the verdicts are the analyzer's, scored from the raw answers at analysis time
  quality = report.quality;
}, 120_000);

afterAll(async () => {
  await server.close();
  t.cleanup();
});

const caseQ = (id: string): CaseQuality => report.quality_summary!.groups[0]!.cases.find((c) => c.caseId === id)!;
const rate = (r: {pass: number; n: number; not_evaluated: number}) => [r.pass, r.n, r.not_evaluated];
const scorer = (id: string, name: string, point: string | null = null) =>
  caseQ(id).scorers.find((s) => s.scorer === name && s.point === point)!;

describe("the whole suite against the fake server", () => {
  it("captures raw answers (no verdict) and the analyzer scores them: one answer per case request", () => {
    expect(answers).toHaveLength(requests.filter((r) => r.caseId !== undefined && r.phase === "measure").length);
    expect(answers.every((a) => !("verdict" in a) && !("qualityVersion" in a))).toBe(true);
    const gsm = answers.find((a) => a.itemId === "gsm8k-2" && a.point === null)!;
    expect([gsm.scorer, typeof gsm.expected, typeof gsm.response, gsm.error]).toEqual([
      "gsm8k",
      "string",
      "string",
      null
    ]);
    // gsm8k: three readings per answer; instructions: strict and loose
    expect(quality).toHaveLength(110);
    expect(quality.map((q) => q.seq)).toEqual(quality.map((_, i) => i));
    expect(report.quality_summary!.groups.map((g) => [g.qualityVersion, g.current, g.frozen])).toEqual([
      ["2", true, false]
    ]);
  });

  it("writes one request record per case request, apart from the load point, and seals quality.jsonl", () => {
    const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as {
      files: {path: string; role: string; records: number}[];
    };
    expect(manifest.files.find((f) => f.path === "quality.jsonl")).toMatchObject({role: "quality", records: 76});
    const perCase = new Map<string, number>();
    for (const r of requests) if (r.caseId) perCase.set(r.caseId, (perCase.get(r.caseId) ?? 0) + 1);
    expect(Object.fromEntries(perCase)).toEqual({
      case_01_generation: 2,
      case_02_tool_call: 2,
      case_03_file_analysis: 4,
      case_04_parallel_tools: 2,
      case_05_long_context: 4,
      case_06_reasoning: 12,
      case_07_multi_turn: 6,
      case_08_concurrency: 8,
      case_09_prefill_injection: 2,
      case_10_needle: 12,
      case_11_instruction: 10,
      gsm8k: 12
    });
    expect(requests.filter((r) => !r.caseId)).toHaveLength(6);
    expect(report.load_points.map((p) => [p.id, p.n])).toEqual([["concurrency-2", 6]]);
    expect(report.verdict, report.verdict_reasons.join("\n")).toBe("VALID");
    expect(report.issues).toEqual([]);
    // performance prompts are salted per item and repeat; quality prompts never are
    expect(requests.filter((r) => r.caseId === "case_01_generation").every((r) => r.salt !== null)).toBe(true);
    expect(requests.filter((r) => r.caseId === "case_10_needle").every((r) => r.salt === null)).toBe(true);
    const notes = readJsonl<ClientRecord>(join(dir, "client_metrics.jsonl")).filter((r) => r.kind === "note");
    expect(notes.map((n) => n.event)).toEqual(
      expect.arrayContaining(["suite_start", "case_start", "case_end", "suite_end"])
    );
  });

  it("reports case performance per tier, read at the stated tier", () => {
    const c = (id: string) => report.cases!.find((x) => x.caseId === id)!;
    expect(c("case_08_concurrency").tiers.map((x) => [x.tier, x.point, x.n, x.n_success, x.slo_rate])).toEqual([
      ["1", "suite-c1", 2, 2, 1],
      ["3", "suite-c3", 6, 6, 1]
    ]);
    expect(c("case_08_concurrency").headlineTier).toBe("3");
    expect(c("case_05_long_context").tiers.map((x) => x.tier)).toEqual(["64", "128"]);
    expect(c("case_05_long_context").headlineTier).toBe("128");
    expect(c("case_07_multi_turn").headlineTier).toBe("3");
    expect(c("case_10_needle").tiers.map((x) => [x.tier, x.point, x.n])).toEqual([
      ["64", "concurrency-2", 3],
      ["64", "suite-c1", 3],
      ["128", "concurrency-2", 3],
      ["128", "suite-c1", 3]
    ]);
    // 64 ignore_eos tokens per case_08 request: the registry's request metrics are there
    const m = c("case_08_concurrency").tiers[1]!.metrics;
    expect(m.output_tokens!.mean).toBe(64);
    expect(m.ttft_ms!.n).toBe(6);
  });

  it("case_10: the retrieval rate and the per-depth × length table", () => {
    const t = caseQ("case_10_needle").needle[0]!;
    expect(t.point).toBeNull();
    expect(t.cells.map((x) => [x.length, x.depth, x.rate.pass, x.rate.n])).toEqual([
      ["64", 0, 1, 1],
      ["64", 0.5, 0, 1],
      ["64", 1, 1, 1],
      ["128", 0, 1, 1],
      ["128", 0.5, 0, 1],
      ["128", 1, 0, 1]
    ]);
    expect(t.byDepth.map((d) => [d.depth, d.rate.pass, d.rate.n])).toEqual([
      [0, 2, 2],
      [0.5, 0, 2],
      [1, 1, 2]
    ]);
    expect(rate(t.overall)).toEqual([3, 6, 0]);
    const cut = quality.find((q) => q.caseId === "case_10_needle" && q.expected === P(5) && q.point === null)!;
    expect([cut.verdict, cut.reason, (cut.extracted as {found: boolean}).found, cut.details.finishReason]).toEqual([
      "fail",
      "truncated: the response hit max_tokens before it ended",
      true,
      "length"
    ]);
    // lengths were measured with the server's /tokenize
    expect(
      quality.filter((q) => q.caseId === "case_10_needle").every((q) => q.details.lengthMethod === "tokenize")
    ).toBe(true);
  });

  it("every case request records its prompt segments, and each tier shows its prefix-cache ceiling", () => {
    const caseRecords = requests.filter((r) => r.caseId !== undefined && r.phase === "measure");
    expect(caseRecords.every((r) => r.promptSegments !== undefined)).toBe(true);
    const tiers = report.cases!.find((x) => x.caseId === "case_10_needle")!.tiers;
    const at = (tier: string, point: string) => tiers.find((x) => x.tier === tier && x.point === point)!.prefix_cache!;
    // under load the same needle prompts are sent again after the idle ones: an unbounded cache could serve
    // all but the last token of each (128 tokens as intended): 127/128
    expect(at("128", "concurrency-2").bound_share).toBeCloseTo(127 / 128, 9);
    // idle, depths 0, 0.5 and 1 in turn share the header and the blocks before the earlier needle: some, not all
    const idle = at("128", "suite-c1").bound_share!;
    expect(idle).toBeGreaterThan(0);
    expect(idle).toBeLessThan(0.5);
    // salted performance prompts share nothing they could reuse
    const c09 = report.cases!.find((x) => x.caseId === "case_09_prefill_injection")!.tiers[0]!.prefix_cache!;
    expect(c09.bound_share).toBe(0);
  });

  it("case_11: per constraint and per prompt, strict and loose, with truncated and unparseable answers", () => {
    const c = caseQ("case_11_instruction");
    expect(c.constraints.map((k) => [k.kind, k.strict.pass, k.strict.n, k.loose.pass, k.loose.n])).toEqual([
      ["array_length", 1, 3, 2, 3],
      ["bullets", 1, 1, 1, 1],
      ["ends_with", 1, 1, 1, 1],
      ["forbidden_words", 0, 2, 0, 2],
      ["json", 1, 3, 2, 3],
      ["json_keys", 1, 3, 2, 3],
      ["keyword", 1, 2, 1, 2],
      ["lowercase", 2, 2, 2, 2],
      ["max_chars", 0, 1, 0, 1],
      ["max_words", 2, 2, 2, 2],
      ["no_commas", 1, 2, 1, 2],
      ["starts_with", 0, 1, 1, 1]
    ]);
    expect(rate(scorer("case_11_instruction", "instructions_strict").rate)).toEqual([4, 10, 0]);
    expect(rate(scorer("case_11_instruction", "instructions_loose").rate)).toEqual([6, 10, 0]);
    expect(c.prompts.map((p) => [p.itemId, p.strict.pass, p.loose.pass])).toEqual([
      ["benefits-json", 1, 1],
      ["sunrise-words", 0, 0],
      ["bottle-commas", 1, 1],
      ["backups-frame", 0, 1],
      ["book-json", 0, 1],
      ["planets-bullets", 1, 1],
      ["compiler-chars", 0, 0],
      ["meta-nested", 0, 0],
      ["autumn-mixed", 0, 0],
      ["cats-lowercase", 1, 1]
    ]);
    const cut = quality.find((q) => q.itemId === "autumn-mixed" && q.scorer === "instructions_strict")!;
    expect(cut.reason).toBe("truncated: the response hit max_tokens before it ended");
    const broken = quality.find((q) => q.itemId === "meta-nested" && q.scorer === "instructions_loose")!;
    expect(broken.reason).toMatch(/^3\/3 constraints failed: json \(not valid JSON/);
  });

  it("GSM8K: strict, flexible and lenient with their coverage over every item, idle and under load", () => {
    // items 0 and 2 carry "#### N" (strict 2); item 1 ends "3 bolts in total." which flexible and lenient
    // read (3); item 3 is wrong but extractable everywhere; item 4 is truncated; item 5 has no number
    const want = {
      n: 6,
      definition: "lm-eval",
      strict: {correct: 2, accuracy: 2 / 6, coverage: 3 / 6},
      flexible: {correct: 3, accuracy: 3 / 6, coverage: 4 / 6},
      lenient: {correct: 3, accuracy: 3 / 6, coverage: 4 / 6}
    };
    expect(caseQ("gsm8k").gsm8k).toEqual([
      {point: null, ...want},
      {point: "concurrency-2", ...want}
    ]);
    const byItem = (item: string) =>
      quality
        .filter((q) => q.caseId === "gsm8k" && q.itemId === item && q.point === null)
        .map((q) => [q.scorer, q.verdict, q.reason]);
    expect(byItem("gsm8k-1")).toEqual([
      ["gsm8k_strict", "fail", `unextractable: no "#### N" that lm-eval's strict-match reads ([invalid])`],
      ["gsm8k_flexible", "pass", null],
      ["gsm8k_lenient", "pass", null]
    ]);
    expect(byItem("gsm8k-4")[0]![2]).toBe("truncated: the response hit max_tokens before it ended");
    expect(byItem("gsm8k-3")[0]![2]).toBe("wrong: extracted 450, expected 540");
    // the raw response, the extracted value and the verdict are kept as evidence
    const r = quality.find((q) => q.itemId === "gsm8k-2" && q.scorer === "gsm8k_strict" && q.point === null)!;
    expect([r.response, r.extracted, r.expected, r.verdict]).toEqual([
      "#### 70,000",
      {text: "70,000", compared: "70000", via: "strict-match"},
      "70000",
      "pass"
    ]);
    const l = quality.find((q) => q.itemId === "gsm8k-2" && q.scorer === "gsm8k_lenient" && q.point === null)!;
    expect((l.extracted as {value: number}).value).toBe(70000);
    expect(r.promptDigest).toBe(requests.find((q) => q.id === r.requestId)!.promptDigest);
  });

  it("tool calls are validated against the declared schema and counted", () => {
    expect(rate(scorer("case_02_tool_call", "tool_schema").rate)).toEqual([2, 2, 0]);
    expect(caseQ("case_02_tool_call").tools).toEqual([{point: null, calls: 2, valid: 2, invalid: 0}]);
    expect(rate(scorer("case_04_parallel_tools", "tool_schema").rate)).toEqual([0, 2, 0]);
    expect(caseQ("case_04_parallel_tools").tools).toEqual([{point: null, calls: 4, valid: 2, invalid: 2}]);
    const q = quality.find((x) => x.caseId === "case_04_parallel_tools")!;
    expect(q.reason).toBe("invalid call get_time: $.timezone: does not match /^[A-Za-z_]+/[A-Za-z_]+$/");
    expect(q.extracted).toEqual(TOOL_ANSWERS["two things at once"]);
  });

  it("numeric cases, the recall round and the cases without assertions", () => {
    expect(rate(scorer("case_03_file_analysis", "numeric").rate)).toEqual([2, 4, 0]);
    const r = scorer("case_06_reasoning", "numeric");
    expect(r.tiers.map((x) => [x.tier, ...rate(x.rate)])).toEqual([
      ["easy", 4, 4, 0],
      ["medium", 2, 4, 0],
      ["hard", 0, 4, 0]
    ]);
    expect([r.headlineTier, ...rate(r.headline), ...rate(r.rate)]).toEqual(["hard", 0, 4, 0, 6, 12, 0]);
    const recall = scorer("case_07_multi_turn", "contains");
    expect([recall.headlineTier, ...rate(recall.rate)]).toEqual(["3", 2, 2, 0]);
    for (const [id, n] of [
      ["case_01_generation", 2],
      ["case_05_long_context", 4],
      ["case_08_concurrency", 8],
      ["case_09_prefill_injection", 2]
    ] as const)
      expect(rate(scorer(id, "none").rate), id).toEqual([0, 0, n]);
    expect(rate(scorer("case_07_multi_turn", "none").rate)).toEqual([0, 0, 4]);
  });

  it("scores the chosen quality cases again under load, with the same items", () => {
    const idle = caseQ("case_10_needle").needle[0]!;
    const load = caseQ("case_10_needle").needle[1]!;
    expect(load.point).toBe("concurrency-2");
    expect(load.cells.map((x) => x.rate)).toEqual(idle.cells.map((x) => x.rate));
    const loaded = requests.filter((r) => r.caseId === "case_10_needle" && r.point === "concurrency-2");
    expect(loaded).toHaveLength(6);
    expect(caseQ("case_11_instruction").scorers.every((s) => s.point === null)).toBe(true);
  });
});

describe("crash recovery", () => {
  it("`inferscope seal` keeps quality.jsonl in the sealed manifest", async () => {
    const copy = join(t.dir, "crashed");
    cpSync(dir, copy, {recursive: true});
    const {files: _files, ...draft} = JSON.parse(readFileSync(join(copy, "manifest.json"), "utf8")) as {files: unknown};
    writeFileSync(join(copy, DRAFT_FILE), JSON.stringify(draft));
    rmSync(join(copy, "manifest.json"));
    const m = await sealCrashedBundle(
      {files: realFiles, clock: realClock, hostname: () => "h", processAlive: () => false},
      copy
    );
    expect(m.files.find((f) => f.path === "quality.jsonl")).toMatchObject({role: "quality", records: 76});
  });
});

describe("a failing server", () => {
  it("keeps every failed item in the denominator, with the reason, never as not evaluated", async () => {
    const bad = await startFakeServer({port: 0, scenario: "inband-error"});
    const out = tempDir("inferscope-suite-bad-");
    try {
      const config = suiteConfig(bad.url, {
        suites: ["case_11_instruction", "gsm8k"],
        suite_options: {gsm8k: {path: SAMPLE, limit: 3}}
      });
      const o = await collect({config, fx: testEffects(), ...defaultCollectDeps, outParent: out.dir});
      const r = await analyzeBundle(fsBundle(o.dir));
      const g = r.quality_summary!.groups[0]!.cases.find((c) => c.caseId === "gsm8k")!;
      expect(g.gsm8k).toEqual([
        {
          point: null,
          n: 3,
          definition: "lm-eval",
          strict: {correct: 0, accuracy: 0, coverage: 0},
          flexible: {correct: 0, accuracy: 0, coverage: 0},
          lenient: {correct: 0, accuracy: 0, coverage: 0}
        }
      ]);
      const i = r.quality_summary!.groups[0]!.cases.find((c) => c.caseId === "case_11_instruction")!;
      expect(rate(i.scorers[0]!.rate)).toEqual([0, 10, 0]);
      const q = r.quality;
      expect(q.every((x) => x.reason?.startsWith("no usable response: in-band error event"))).toBe(true);
      expect(r.cases!.find((c) => c.caseId === "gsm8k")!.tiers[0]!.n_success).toBe(0);
    } finally {
      await bad.close();
      out.cleanup();
    }
  }, 60_000);
});
