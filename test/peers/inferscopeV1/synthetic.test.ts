import {describe, expect, it} from "vitest";

import {checkAgainstFile} from "../check.ts";
import {v1Expected} from "../expected.ts";
import {importAndAnalyze} from "../helpers.ts";
import {f, json, V1} from "../synthetic.ts";

describe("InferScope v1 artifact folder", () => {
  it("R-7 latency, goodput as a rate with the success-rate rule; schedule view available", async () => {
    const {run, report} = await importAndAnalyze("auto", [
      f(V1),
      f(V1.replace("/raw/", "/processed/") + "/aggregate.json")
    ]);
    expect(run.tool).toBe("inferscope-v1");
    const r = checkAgainstFile(report, v1Expected(json(V1.replace("/raw/", "/processed/") + "/aggregate.json")));
    expect(r.unrecomputable).toEqual([]);
    const good = report.source_comparison!.find((x) => x.metric === "throughput.goodput_requests_per_second")!;
    expect(good.recomputed_status).toBe("derived");
    expect(report.gates.find((g) => g.id === "G7")!.status).toBe("pass");
    expect(run.requests.every((q) => q.tSchedNs !== null)).toBe(true);
  });
});
