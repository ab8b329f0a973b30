import {readFileSync} from "node:fs";
import {join} from "node:path";

import {describe, expect, it} from "vitest";

import {analyzeBundle} from "../../../src/analysis/index.ts";
import type {CaseAnswer, QualityRecord} from "../../../src/analysis/schema/records.ts";
import {QUALITY_VERSION} from "../../../src/analysis/schema/versions.ts";
import {fsBundle} from "../../../src/io/fsBundle.ts";
import {analyzeFiles, analyzeSpec, bundleFiles, cleanRun, lane} from "../../support/bundle.ts";

/**
 * quality.jsonl as the analyzer reads it: raw answers are scored at analysis time; verdicts frozen in the
 * bundle by an older collector are read as recorded, labelled frozen with their quality version.
 */
type NoSeq<T> = Omit<T, "seq">;

const gsmAnswer = (itemId: string, response: string | null, over: Partial<CaseAnswer> = {}): NoSeq<CaseAnswer> => ({
  caseId: "gsm8k",
  itemId,
  requestId: `r-${itemId}`,
  point: null,
  tier: null,
  repeat: 0,
  round: null,
  promptDigest: null,
  scorer: "gsm8k",
  expected: "18",
  response,
  toolCalls: [],
  finishReason: response === null ? null : "stop",
  error: response === null ? "http 500" : null,
  details: {},
  ...over
});

const frozen = (itemId: string, scorer: string, verdict: QualityRecord["verdict"]): NoSeq<QualityRecord> => ({
  qualityVersion: "1",
  caseId: "gsm8k",
  scorer,
  itemId,
  requestId: null,
  point: null,
  tier: null,
  promptDigest: null,
  response: "#### 18",
  extracted: 18,
  expected: "18",
  verdict,
  reason: null,
  details: {}
});

const groupsOf = (r: Awaited<ReturnType<typeof analyzeSpec>>) =>
  r.quality_summary!.groups.map((g) => [g.qualityVersion, g.current, g.frozen, g.records]);

describe("quality.jsonl routing", () => {
  it("scores raw answers at analysis time under this analyzer's quality version", async () => {
    const r = await analyzeSpec(
      cleanRun(lane("q", 3), {
        quality: [gsmAnswer("a", "so 18\n#### 18"), gsmAnswer("b", "#### 17"), gsmAnswer("c", null)]
      })
    );
    expect(groupsOf(r)).toEqual([[QUALITY_VERSION, true, false, 9]]);
    expect(r.quality.map((q) => q.seq)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    const g = r.quality_summary!.groups[0]!.cases[0]!.gsm8k[0]!;
    expect([g.definition, g.n, g.strict.correct, g.flexible.correct, g.lenient!.correct]).toEqual([
      "lm-eval",
      3,
      1,
      1,
      1
    ]);
    const failed = r.quality.find((q) => q.itemId === "c" && q.scorer === "gsm8k_strict")!;
    expect([failed.verdict, failed.reason]).toEqual(["fail", "no usable response: http 500"]);
  });

  it("reads frozen verdicts as recorded, labelled frozen with their quality version, never re-scored", async () => {
    const lines = [frozen("a", "gsm8k_strict", "fail"), frozen("a", "gsm8k_flexible", "pass")];
    const r = await analyzeSpec(cleanRun(lane("q", 1), {quality: lines}));
    expect(groupsOf(r)).toEqual([["1", false, true, 2]]);
    // the response would pass strict today: the recorded verdict stands
    expect(r.quality.map((q) => [q.scorer, q.verdict])).toEqual([
      ["gsm8k_strict", "fail"],
      ["gsm8k_flexible", "pass"]
    ]);
    expect(r.quality_summary!.groups[0]!.cases[0]!.gsm8k[0]!.definition).toBe("v1");
  });

  it("keeps frozen and analysis-scored verdicts of one version in separate groups", async () => {
    const r = await analyzeSpec(
      cleanRun(lane("q", 1), {
        quality: [gsmAnswer("a", "#### 18"), {...frozen("b", "gsm8k_strict", "pass"), qualityVersion: QUALITY_VERSION}]
      })
    );
    expect(groupsOf(r)).toEqual([
      [QUALITY_VERSION, true, false, 3],
      [QUALITY_VERSION, true, true, 1]
    ]);
  });

  it("warns at file:line about an answer its scorer cannot read, and leaves it not evaluated", async () => {
    const r = await analyzeSpec(
      cleanRun(lane("q", 1), {quality: [gsmAnswer("a", "#### 18"), gsmAnswer("b", "#### 1", {expected: "many"})]})
    );
    expect(r.issues.filter((i) => i.code === "quality_spec")).toEqual([
      {
        severity: "warning",
        code: "quality_spec",
        file: "quality.jsonl",
        line: 2,
        path: "scorer",
        message: 'item "b" cannot be scored: expected must be a number or a numeric string, got "many"'
      }
    ]);
    expect(r.quality.filter((q) => q.itemId === "b").map((q) => [q.scorer, q.verdict])).toEqual([
      ["gsm8k", "not_evaluated"]
    ]);
  });

  it("names the field of a bad line, for an answer and for a frozen verdict", async () => {
    const files = bundleFiles(cleanRun(lane("q", 1), {quality: [gsmAnswer("a", "#### 18"), frozen("b", "x", "pass")]}));
    files["quality.jsonl"] = files["quality.jsonl"]!.replace('"repeat":0', '"repeat":"0"').replace(
      '"verdict":"pass"',
      '"verdict":"ok"'
    );
    const r = await analyzeFiles(files);
    const bad = r.issues.filter((i) => i.file === "quality.jsonl" && i.severity === "error");
    expect(bad.map((i) => [i.line, i.path])).toEqual([
      [1, "repeat"],
      [2, "verdict"]
    ]);
  });
});

describe("a shipped bundle with frozen verdicts", () => {
  const dir = join(import.meta.dirname, "../../../evidence/20261129-vm-random-tiny-llamacpp-tiny-suite-34ca21");

  it("stays readable: its QUALITY_VERSION 1 verdicts are used as recorded and labelled frozen", async () => {
    const r = await analyzeBundle(fsBundle(dir));
    const lines = readFileSync(join(dir, "quality.jsonl"), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as QualityRecord);
    expect(r.quality).toEqual(lines);
    expect(groupsOf(r)).toEqual([["1", false, true, 267]]);
    expect(r.issues.filter((i) => i.file === "quality.jsonl")).toEqual([]);
    const gsm = r.quality_summary!.groups[0]!.cases.find((c) => c.caseId === "gsm8k")!.gsm8k;
    expect(gsm.map((g) => [g.point, g.definition, g.n, g.lenient])).toEqual([
      [null, "v1", 20, null],
      ["concurrency-2", "v1", 20, null]
    ]);
  });
});
