import {mkdtempSync, readFileSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";

import {afterAll, describe, expect, it} from "vitest";

import {SuiteOptionsSpec} from "../../src/analysis/schema/config.ts";
import {HEAVY_CASES, headlineTier, sortTiers} from "../../src/analysis/schema/cases.ts";
import {realFiles} from "../../collector/effects.ts";
import {cacheDir} from "../../collector/env/cacheDir.ts";
import {fillerSentences, fitFiller} from "../../collector/cases/filler.ts";
import {gsm8kItems, loadGsm8k, parseGsm8k, sha256Of, type Gsm8kSource} from "../../collector/cases/gsm8k.ts";
import {passphrase, plant} from "../../collector/cases/needle.ts";
import {planCases, selectCases} from "../../collector/cases/plan.ts";

const SAMPLE_PATH = join(import.meta.dirname, "..", "fixtures", "gsm8k-sample.jsonl");
const SAMPLE = readFileSync(SAMPLE_PATH, "utf8");
const options = (o: Record<string, unknown> = {}) => SuiteOptionsSpec.parse(o);
const tmp = mkdtempSync(join(tmpdir(), "inferscope-cases-"));
afterAll(() => rmSync(tmp, {recursive: true, force: true}));

describe("selectCases", () => {
  it("keeps the spec's ids and catalogue order, without duplicates", () => {
    expect(selectCases(["case_11_instruction", "case_01_generation", "case_11_instruction"], false).cases).toEqual([
      "case_01_generation",
      "case_11_instruction"
    ]);
    expect(selectCases(["all"], false).cases).toHaveLength(11);
    expect(selectCases(["quality"], false).cases).toEqual(["case_10_needle", "case_11_instruction"]);
  });

  it("--skip-heavy skips 05/06/07/09 and never a quality case", () => {
    expect(HEAVY_CASES).toEqual([
      "case_05_long_context",
      "case_06_reasoning",
      "case_07_multi_turn",
      "case_09_prefill_injection"
    ]);
    const s = selectCases(["all", "gsm8k"], true);
    expect(s.skipped).toEqual(HEAVY_CASES);
    expect(s.cases).toEqual([
      "case_01_generation",
      "case_02_tool_call",
      "case_03_file_analysis",
      "case_04_parallel_tools",
      "case_08_concurrency",
      "case_10_needle",
      "case_11_instruction",
      "gsm8k"
    ]);
  });

  it("names the known ids when one is unknown", () => {
    expect(() => selectCases(["case_12_vision"], false)).toThrow(
      /unknown suite "case_12_vision": use all, quality, case_01_generation/
    );
  });
});

describe("tiers", () => {
  it("sort numerically or by the case's order; the stated tier is the heaviest / last round", () => {
    expect(sortTiers("case_05_long_context", ["4000", "500", "1000"])).toEqual(["500", "1000", "4000"]);
    expect(sortTiers("case_06_reasoning", ["hard", "easy", "medium"])).toEqual(["easy", "medium", "hard"]);
    expect(headlineTier("case_08_concurrency", ["16", "2", "8"])).toBe("16");
    expect(headlineTier("case_07_multi_turn", ["1", "10", "2"])).toBe("10");
    expect(headlineTier("case_10_needle", ["512"])).toBeNull();
  });
});

describe("planCases", () => {
  it("builds every case's items, tiers and repeats (quality cases: quality_repeats)", async () => {
    const data = {
      items: parseGsm8k(SAMPLE, "sample"),
      origin: {kind: "path" as const, path: "s", sha256: "x", pinned: false}
    };
    const plans = await planCases(selectCases(["all", "gsm8k"], false).cases, {
      options: options({
        repeats: 3,
        long_context_tiers: [64, 128],
        prefill_tiers: [256],
        concurrency_tiers: [1, 4],
        rounds: 4,
        needle: {lengths: [64, 128], depths: [0, 1]},
        gsm8k: {limit: 5}
      }),
      seed: 1,
      count: null,
      gsm8k: data,
      salt: true
    });
    const shape = plans.map((p) => [
      p.caseId,
      p.items.length,
      p.repeats,
      p.salt,
      [...new Set(p.items.map((i) => i.tier))]
    ]);
    expect(shape).toEqual([
      ["case_01_generation", 1, 3, true, [null]],
      ["case_02_tool_call", 1, 3, true, [null]],
      ["case_03_file_analysis", 2, 3, true, [null]],
      ["case_04_parallel_tools", 1, 3, true, [null]],
      ["case_05_long_context", 2, 3, true, ["64", "128"]],
      ["case_06_reasoning", 6, 3, true, ["easy", "medium", "hard"]],
      ["case_07_multi_turn", 1, 3, true, [null]],
      ["case_08_concurrency", 5, 3, true, ["1", "4"]],
      ["case_09_prefill_injection", 1, 3, true, ["256"]],
      ["case_10_needle", 4, 1, false, ["64", "128"]],
      ["case_11_instruction", 10, 1, false, [null]],
      ["gsm8k", 5, 1, false, [null]]
    ]);
    const conv = plans.find((p) => p.caseId === "case_07_multi_turn")!.items[0]!;
    expect(conv.turns.map((t) => [t.tier, t.score.scorer])).toEqual([
      ["1", "none"],
      ["2", "none"],
      ["3", "none"],
      ["4", "contains"]
    ]);
    expect(plans.find((p) => p.caseId === "case_08_concurrency")!.items.map((i) => i.concurrency)).toEqual([
      1, 4, 4, 4, 4
    ]);
    // the instruction prompts use every constraint kind
    const kinds = new Set(
      plans
        .find((p) => p.caseId === "case_11_instruction")!
        .items.flatMap((i) => (i.turns[0]!.score.params!.constraints as {kind: string}[]).map((c) => c.kind))
    );
    expect(kinds.size).toBe(12);
  });
});

describe("filler and needles", () => {
  it("are deterministic and free of colours, animals and digits", () => {
    expect(fillerSentences(5, 3)).toEqual(fillerSentences(5, 3));
    expect(fillerSentences(50, 3).join(" ")).not.toMatch(/\d|crimson|otter|amber|heron/i);
    expect(passphrase(7, 0)).toBe(passphrase(7, 0));
    expect(passphrase(7, 0)).toMatch(/^[a-z]+-[a-z]+-\d{4}$/);
    expect(new Set(Array.from({length: 20}, (_, i) => passphrase(7, i))).size).toBeGreaterThan(15);
  });

  it("plants the needle at the requested depth", () => {
    const s = ["a", "b", "c", "d"];
    expect(plant(s, "N", 0)).toEqual(["N", "a", "b", "c", "d"]);
    expect(plant(s, "N", 0.5)).toEqual(["a", "b", "N", "c", "d"]);
    expect(plant(s, "N", 1)).toEqual(["a", "b", "c", "d", "N"]);
  });

  it("fits the filler to a token target with the server's counter, or estimates without one", async () => {
    const words = (t: string) => t.split(/\s+/).filter(Boolean).length;
    const fitted = await fitFiller(
      300,
      1,
      (s) => s.join(" "),
      async (t) => words(t)
    );
    expect(fitted.method).toBe("tokenize");
    expect(Math.abs(fitted.measuredTokens! - 300)).toBeLessThanOrEqual(6);
    expect(fitted.measuredTokens).toBe(words(fitted.sentences.join(" ")));
    const est = await fitFiller(300, 1, (s) => s.join(" "), null);
    expect([est.method, est.measuredTokens, est.sentences.length]).toEqual(["estimate", null, 25]);
  });
});

describe("GSM8K data", () => {
  const source = (body: string): Gsm8kSource => ({
    url: "https://example.invalid/test.jsonl",
    sha256: sha256Of(body),
    cacheName: "t.jsonl"
  });
  const http = (body: string, calls: string[]) => async (r: {url: string}) => {
    calls.push(r.url);
    return {status: 200, headers: {}, body, truncated: false};
  };

  it("parses the shipped sample (MIT, first 20 test items) and makes one item per question", () => {
    const items = parseGsm8k(SAMPLE, "sample");
    expect(items.map((i) => i.answer).slice(0, 4)).toEqual(["18", "3", "70000", "540"]);
    const data = {items, origin: {kind: "path" as const, path: "s", sha256: "x", pinned: false}};
    const cases = gsm8kItems(data, {limit: 2, max_tokens: 256});
    expect(cases.map((c) => [c.itemId, c.turns[0]!.score.expected, c.turns[0]!.maxTokens])).toEqual([
      ["gsm8k-0", "18", 256],
      ["gsm8k-1", "3", 256]
    ]);
    expect(cases[0]!.turns[0]!.user).toContain("Janet’s ducks lay 16 eggs");
  });

  it("reports a bad line as file:line with what was expected", () => {
    expect(() => parseGsm8k('{"question": "q", "answer": "a"}\n', "f.jsonl")).toThrow(
      'f.jsonl:1: answer must end with "#### <number>", got "a"'
    );
    expect(() => parseGsm8k('{"question": "q", "answer": "#### 1"}\n{oops\n', "f.jsonl")).toThrow(
      /^f\.jsonl:2: not JSON/
    );
    expect(() => parseGsm8k("[1]\n", "f.jsonl")).toThrow('f.jsonl:1: expected {"question": string, "answer": string}');
  });

  it("reads a user path and records whether it is the pinned file", async () => {
    const d = await loadGsm8k({path: SAMPLE_PATH, download: false}, {files: realFiles, http: null as never, env: {}});
    expect(d.items).toHaveLength(20);
    expect(d.origin).toMatchObject({kind: "path", sha256: sha256Of(SAMPLE), pinned: false});
  });

  it("downloads once, verifies the sha256, caches, then reads the cache", async () => {
    const env = {XDG_CACHE_HOME: join(tmp, "xdg")};
    const calls: string[] = [];
    const fx = {files: realFiles, http: http(SAMPLE, calls) as never, env};
    const first = await loadGsm8k({download: true}, fx, source(SAMPLE));
    expect(first.origin.kind).toBe("download");
    expect(first.origin.path).toBe(join(tmp, "xdg", "inferscope", "gsm8k", "t.jsonl"));
    expect(cacheDir(env)).toBe(join(tmp, "xdg", "inferscope"));
    const second = await loadGsm8k({download: true}, fx, source(SAMPLE));
    expect(second.origin.kind).toBe("cache");
    expect(calls).toHaveLength(1);
  });

  it("refuses a download whose sha256 differs, and caches nothing", async () => {
    const env = {XDG_CACHE_HOME: join(tmp, "xdg2")};
    const fx = {files: realFiles, http: http(SAMPLE + "\n", []) as never, env};
    await expect(loadGsm8k({download: true}, fx, source(SAMPLE))).rejects.toThrow(
      /downloaded GSM8K has sha256 .* expected .*: not cached/
    );
    await expect(loadGsm8k({download: false}, fx, source(SAMPLE))).rejects.toThrow(
      /is not cached at .* and suite_options.gsm8k.download is false/
    );
  });

  it("names the workaround when the download fails", async () => {
    const fx = {
      files: realFiles,
      http: (async () => {
        throw new Error("getaddrinfo ENOTFOUND");
      }) as never,
      env: {XDG_CACHE_HOME: join(tmp, "xdg3")}
    };
    await expect(loadGsm8k({download: true}, fx, source(SAMPLE))).rejects.toThrow(
      /cannot download GSM8K from https:\/\/example.invalid\/test.jsonl: getaddrinfo ENOTFOUND; .*suite_options.gsm8k.path/
    );
  });
});
