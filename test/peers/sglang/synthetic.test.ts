import {describe, expect, it} from "vitest";

import {checkAgainstFile} from "../check.ts";
import {vllmLikeExpected} from "../expected.ts";
import {importAndAnalyze} from "../helpers.ts";
import {f, lines} from "../synthetic.ts";

describe("SGLang bench_serving JSONL", () => {
  it("two runs; with --output-details TTFT/ITL exact, E2E (incl. [DONE]) and TPOT bounded, concurrency derived", async () => {
    const {run, report} = await importAndAnalyze("auto", [f("sglang/sglang-bench-serving.jsonl")]);
    expect(run.tool).toBe("sglang");
    expect(report.load_points.map((p) => p.id)).toEqual(["poisson-2", "poisson-8"]);
    const r = checkAgainstFile(report, vllmLikeExpected(lines("sglang/sglang-bench-serving.jsonl")));
    expect(r.bounded.length).toBe(6);
    const conc = report.source_comparison!.filter((x) => x.metric === "concurrency");
    expect(conc.every((x) => x.recomputed_status === "derived")).toBe(true);
  });
});
