import {writeFileSync} from "node:fs";
import {join} from "node:path";

import {afterAll, describe, expect, it} from "vitest";

import {CliError} from "../../collector/cliError.ts";
import {scoreCommand} from "../../collector/commands/score.ts";
import type {Io} from "../../collector/commands/io.ts";
import {LM_EVAL_COMMIT} from "../../src/analysis/index.ts";
import {memoryLogger, spawnCli, tempDir} from "../collector/helpers.ts";

const t = tempDir("inferscope-score-");
afterAll(() => t.cleanup());

function file(name: string, lines: unknown[]): string {
  const path = join(t.dir, name);
  writeFileSync(path, lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n") + "\n");
  return path;
}

function run(scorer: string, input: string, json = false): {lines: string[]; json: () => Record<string, unknown>} {
  const lines: string[] = [];
  const io: Io = {out: (l) => void lines.push(l), err: memoryLogger()};
  scoreCommand(scorer, {input, json}, io);
  return {lines, json: () => JSON.parse(lines.join("\n")) as Record<string, unknown>};
}

// Worked by hand from lm-eval's gsm8k.yaml (strict-match: first `#### (-?[0-9.,]+)`; flexible-extract: last
// match of `(-?[$0-9.,]{2,})|(-?[0-9]+)`; both compared after removing "," "$" "…#### " and a final ".")
// and from our lenient reading (the last ####, else \boxed{}, else the last number; Unicode digits and minus).
const GSM = [
  // all three read 18
  {id: "a", response: "9*2=18\n#### 18", expected: 18},
  // no "#### ": strict [invalid]; flexible's last match is "1,234" → "1234"; lenient reads the box
  {id: "b", response: "The answer is \\boxed{1,234}.", expected: "1234"},
  // strict [invalid]; flexible and lenient read the last number, 7: wrong
  {id: "c", response: "so 5 eggs, but I think 7", expected: 5},
  // truncated: wrong everywhere, not covered
  {id: "d", response: "#### 3 and it keeps going", expected: 3, finish_reason: "length"},
  // nothing to read anywhere
  {id: "e", response: "no idea", expected: "He has 9*2=<<9*2=18>>18\n#### 18"},
  // U+2212 is not ASCII "-": flexible reads "4" (≠ "-4"); lenient reads -4
  {id: "f", response: "it is \u22124", expected: -4},
  {id: "g", response: null, expected: 1, error: "http 500"}
];

describe("inferscope score", () => {
  it("gsm8k --json: totals are exactly {n, strict, flexible, lenient}, accuracy and coverage over all n", () => {
    const out = run("gsm8k", file("g.jsonl", GSM), true).json();
    expect(out.totals).toEqual({
      n: 7,
      strict: {correct: 1, accuracy: 1 / 7, coverage: 1 / 7},
      flexible: {correct: 2, accuracy: 2 / 7, coverage: 4 / 7},
      lenient: {correct: 3, accuracy: 3 / 7, coverage: 4 / 7}
    });
    const items = out.items as {id: string; scorer: string; verdict: string; reason: string | null}[];
    const byScorer = (scorer: string) => items.filter((i) => i.scorer === scorer).map((i) => i.verdict);
    expect(byScorer("gsm8k_strict")).toEqual(["pass", "fail", "fail", "fail", "fail", "fail", "fail"]);
    expect(byScorer("gsm8k_flexible")).toEqual(["pass", "pass", "fail", "fail", "fail", "fail", "fail"]);
    expect(byScorer("gsm8k_lenient")).toEqual(["pass", "pass", "fail", "fail", "fail", "pass", "fail"]);
    expect(items.find((i) => i.id === "g")!.reason).toBe("no usable response: http 500");
    expect(out.quality_version).toBe("2");
    expect(out.lm_eval_commit).toBe(LM_EVAL_COMMIT);
  });

  it("gsm8k prints per-item verdicts and the totals", () => {
    const {lines} = run("gsm8k", file("g2.jsonl", GSM));
    expect(lines[0]).toBe("a\tstrict=pass flexible=pass lenient=pass");
    expect(lines).toContain(
      "d\tstrict=fail flexible=fail lenient=fail\ttruncated: the response hit max_tokens before it ended"
    );
    expect(lines).toContain("strict (lm-eval strict-match):          1/7 = 14.3 %, coverage 14.3 %");
    expect(lines).toContain("flexible (lm-eval flexible-extract):    2/7 = 28.6 %, coverage 57.1 %");
    expect(lines).toContain("lenient (####, \\boxed{}, last number):  3/7 = 42.9 %, coverage 57.1 %");
  });

  it("needle: retrieval rate with the per-depth table", () => {
    const out = run(
      "needle",
      file("n.jsonl", [
        {id: 1, response: "Amber-Heron-1234", needle: "amber-heron-1234", depth: 0, length: 512},
        {id: 2, response: "no", needle: "amber-heron-1234", depth: 0.5, length: 512},
        {id: 3, response: "amber heron 1234", expected: "amber-heron-1234", depth: 0.5, length: 1024}
      ]),
      true
    ).json();
    expect(out.totals).toEqual({
      n: 3,
      retrieved: 2,
      rate: 2 / 3,
      by_depth: [
        {depth: 0, n: 1, retrieved: 1, rate: 1},
        {depth: 0.5, n: 2, retrieved: 1, rate: 0.5}
      ],
      cells: [
        {length: "512", depth: 0, n: 1, retrieved: 1, rate: 1},
        {length: "512", depth: 0.5, n: 1, retrieved: 0, rate: 0},
        {length: "1024", depth: 0.5, n: 1, retrieved: 1, rate: 1}
      ]
    });
  });

  it("instructions: per prompt and per constraint, strict and loose", () => {
    const cs = [{kind: "json"}, {kind: "no_commas"}];
    const out = run(
      "instructions",
      file("i.jsonl", [
        {id: "p1", response: '{"a": 1}', constraints: cs},
        {id: "p2", response: '```json\n{"a": 1}\n```', constraints: cs},
        {id: "p3", response: '{"a": 1, "b": 2}', constraints: cs}
      ]),
      true
    ).json();
    expect(out.totals).toEqual({
      n: 3,
      strict: {
        prompts: {n: 3, passed: 1, rate: 1 / 3},
        constraints: [
          {kind: "json", n: 3, passed: 2, rate: 2 / 3},
          {kind: "no_commas", n: 3, passed: 2, rate: 2 / 3}
        ]
      },
      loose: {
        prompts: {n: 3, passed: 2, rate: 2 / 3},
        constraints: [
          {kind: "json", n: 3, passed: 3, rate: 1},
          {kind: "no_commas", n: 3, passed: 2, rate: 2 / 3}
        ]
      }
    });
  });

  it("names file:line and what was expected for every bad line", () => {
    const bad = file("bad.jsonl", ['{"id": 1, "response": 5, "expected": 1}', "nope", '{"id": "x", "response": "r"}']);
    let err: unknown;
    try {
      run("gsm8k", bad);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CliError);
    const msg = (err as CliError).message;
    expect((err as CliError).exitCode).toBe(2);
    expect(msg).toContain(
      `${bad}:1: response: Invalid input: expected string, received number; expected {"id", "response", "expected": number or "#### N" solution}`
    );
    expect(msg).toMatch(new RegExp(`${bad.replace(/[.]/g, "\\.")}:2: not JSON`));
    expect(msg).toContain(`${bad}:3: expected:`);
    expect(() =>
      run("instructions", file("i2.jsonl", [{id: 1, response: "x", constraints: [{kind: "rhymes"}]}]))
    ).toThrow(/i2\.jsonl:1: constraints\.0\.kind: /);
    expect(() => run("needle", file("n2.jsonl", [{id: 1, response: "x"}]))).toThrow(/n2\.jsonl:1: needle: missing/);
    expect(() => run("bleu", bad)).toThrow(/unknown scorer "bleu": use gsm8k, needle, instructions/);
  });

  it("is registered in the CLI: exit 0, and exit 2 on bad input", async () => {
    const ok = spawnCli(["score", "gsm8k", "--input", file("c.jsonl", GSM.slice(0, 2)), "--json"]);
    expect((await ok.exit).code).toBe(0);
    expect(JSON.parse(ok.stdout()).totals.n).toBe(2);
    const bad = spawnCli(["score", "gsm8k", "--input", file("c2.jsonl", ["{"])]);
    expect((await bad.exit).code).toBe(2);
    expect(bad.stderr()).toMatch(/c2\.jsonl:1: not JSON/);
  }, 30_000);
});
