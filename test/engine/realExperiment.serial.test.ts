import {mkdtempSync, readFileSync, rmSync} from "node:fs";
import {availableParallelism, tmpdir} from "node:os";
import {join} from "node:path";

import {afterAll, beforeAll, describe, expect, it} from "vitest";

import {findLlamaServer} from "../../scripts/engine/buildLlamaServer.ts";
import {ensureEngine} from "../../scripts/engine/engine.ts";
import {writeEngineExperiment} from "../../scripts/engine/experimentPlan.ts";
import {analyzeBundle, compareSpec, type ExperimentRecord, type Report} from "../../src/analysis/index.ts";
import {fsBundle} from "../../src/io/fsBundle.ts";
import {spawnCli} from "../collector/helpers.ts";

/**
 * Speculative decoding off vs on through `inferscope experiment` and the process launcher, on the real
 * llama-server (tiny random-weight model as its own draft, reference-engine.md §9): at temperature 0 the
 * draft is always accepted, and on CPU cores the draft costs as much as the target, so speculation is
 * slower. Runs when llama-server is on PATH or cached, or builds it with INFERSCOPE_BUILD_ENGINE=1.
 */
const build = process.env.INFERSCOPE_BUILD_ENGINE === "1";
const skip = (await findLlamaServer()) === undefined && !build;
if (skip) console.warn("skipping test/engine/realExperiment.serial.test.ts: no llama-server on PATH or in the cache");

const out = mkdtempSync(join(tmpdir(), "inferscope-realexp-"));
afterAll(() => rmSync(out, {recursive: true, force: true}));

describe.skipIf(skip)("experiment on the real llama-server: speculative decoding off vs on", () => {
  let record: ExperimentRecord;
  let code: number | null;
  let stderr: string;
  const reports = new Map<string, Report>();

  /** One `inferscope experiment` run of both variants into its own folder. */
  async function collect(attempt: number): Promise<void> {
    const dir = join(out, `attempt-${attempt}`);
    const engine = await ensureEngine({preset: "tiny", seed: 1, build});
    const plan = writeEngineExperiment({
      engine,
      name: "real-spec",
      dir: join(dir, "plan"),
      out: join(dir, "evidence"),
      parallel: 1,
      threads: Math.max(1, availableParallelism() - 1),
      runs: [
        {
          file: "decode.yaml",
          workload: {prompt_tokens: 64, max_tokens: 512},
          load: {mode: "concurrency", values: [1], requests: 5, warmup: 1},
          extra: {slo: {percentile: "p50", ttft_ms: 5000, itl_ms: 500, e2e_ms: 120_000}, gates: {min_samples: 5}}
        }
      ]
    });
    const cli = spawnCli(["experiment", "--plan", plan, "--no-progress"]);
    code = (await cli.exit).code;
    stderr = cli.stderr();
    record = JSON.parse(
      readFileSync(join(dir, "evidence/experiments/real-spec/experiment.json"), "utf8")
    ) as ExperimentRecord;
    reports.clear();
    for (const v of record.variants)
      for (const b of v.bundles)
        reports.set(
          v.name,
          await analyzeBundle(fsBundle(join(dir, "evidence/experiments/real-spec", b.dir)), {keepRows: true})
        );
  }

  beforeAll(async () => {
    await collect(1);
    // The two variants are collected one after the other on the same cores as the server. Another process busy
    // during one variant only slows that one, and can even out a real difference (no_clear_difference): collect
    // both once more, as a user would repeat a comparison taken on a busy machine. A second reading other than
    // "slower" fails the test.
    const reading = compareSpec(reports.get("llama-spec-on")!, reports.get("llama-spec-off")!).points[0]?.reading;
    if (reading !== "slower") {
      console.warn(`realExperiment: first comparison read ${String(reading)}; collecting both variants again`);
      await collect(2);
    }
  }, 20 * 60_000);

  it("launches, collects and tears down both variants", () => {
    // 4 only when a busy machine makes a verdict INCONCLUSIVE on client health
    expect([0, 4], stderr).toContain(code);
    expect(record.variants.map((v) => [v.name, v.status])).toEqual([
      ["llama-spec-off", "collected"],
      ["llama-spec-on", "collected"]
    ]);
    for (const v of record.variants)
      expect(
        v.teardown.every((s) => s.ok),
        JSON.stringify(v.teardown)
      ).toBe(true);
  });

  it("reads 100 % acceptance with the model as its own draft, and none without speculation", () => {
    const on = reports.get("llama-spec-on")!.load_points[0]!.spec_decode!;
    expect(on.acceptance_rate.value).toBe(1);
    // drafts of up to 4 tokens, all accepted: each step yields more than one token
    expect(on.mean_acceptance_length.value).toBeGreaterThan(1);
    const off = reports.get("llama-spec-off")!.load_points[0]!.spec_decode;
    expect(off?.acceptance_rate.value ?? null).toBeNull();
  });

  it("judges speculation slower on CPU (the draft costs as much as the target), fit to judge, TTFT labelled expected", () => {
    const cmp = compareSpec(reports.get("llama-spec-on")!, reports.get("llama-spec-off")!);
    const p = cmp.points[0]!;
    expect(p.fit).toBe(true); // 512-token outputs, 64-token prompts
    expect(p.reading).toBe("slower");
    expect(p.decode.relPct!).toBeLessThan(-10);
    expect(p.ttft.expected).toBe(true);
    expect(cmp.messages.map((m) => m.id)).toContain("specTotalThroughputNotUsed");
    // about half the speed: when below the stated 0.5 it is a collapse, but never a *long-context* one at 64 tokens
    const ids = p.messages.map((m) => m.id);
    expect(ids).not.toContain("specCollapse");
    if (p.collapse.collapsed) expect(ids).toContain("specCollapseShortContext");
  });
});
