import {mkdtempSync, rmSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";

import {describe, expect, it} from "vitest";

import {checkAgainstFile} from "../check.ts";
import {guidellmExpected} from "../expected.ts";
import {importAndAnalyze} from "../helpers.ts";
import {f, json} from "../synthetic.ts";

describe("GuideLLM benchmarks.json", () => {
  it("token-weighted ITL and TTFT-inclusive TPOT reproduce with weighted nearest rank", async () => {
    const {report} = await importAndAnalyze("auto", [f("guidellm/benchmarks.json")]);
    const r = checkAgainstFile(report, guidellmExpected(json("guidellm/benchmarks.json")));
    expect(r.unrecomputable).toEqual([]);
    expect(r.exact).toBe(70);
  });
});

describe("generations of a format", () => {
  it("GuideLLM before 0.5 (start_time/first_token_time/last_token_time/end_time on the request) imports alike", async () => {
    const g = json("guidellm/benchmarks.json") as {benchmarks: {requests: {successful: Record<string, unknown>[]}}[]};
    for (const r of g.benchmarks[0]!.requests.successful) {
      const t = (r.info as {timings: Record<string, number>}).timings;
      Object.assign(r, {
        start_time: t.request_start,
        first_token_time: t.first_token_iteration,
        last_token_time: t.last_token_iteration,
        end_time: t.request_end
      });
      delete r.info;
    }
    const dir = mkdtempSync(join(tmpdir(), "inferscope-guidellm-"));
    try {
      writeFileSync(join(dir, "old.json"), JSON.stringify(g));
      const {report} = await importAndAnalyze("auto", [join(dir, "old.json")]);
      const r = checkAgainstFile(report, guidellmExpected(g as unknown as Record<string, unknown>));
      expect(r.exact).toBe(70);
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  });
});
