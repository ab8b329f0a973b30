import {describe, expect, it} from "vitest";

import {checkAgainstFile} from "../check.ts";
import {genaiPerfExpected} from "../expected.ts";
import {importAndAnalyze} from "../helpers.ts";
import {f, json} from "../synthetic.ts";

describe("GenAI-Perf profile export", () => {
  it("re-joins a split SSE line, skips the role-only first response, counts the failed request in req/s", async () => {
    const {run, report} = await importAndAnalyze("auto", [
      f("genai-perf/profile_export.json"),
      f("genai-perf/profile_export_genai_perf.json")
    ]);
    expect(run.tool).toBe("genai-perf");
    const r = checkAgainstFile(report, genaiPerfExpected(json("genai-perf/profile_export_genai_perf.json")));
    // GenAI-Perf counts output tokens with its client tokenizer, a count the export does not keep (the server's
    // usage is another count): its token rows are not recomputed; every other row is
    const tokenRows = /^(inter_token_latency|output_sequence_length|output_token_throughput)\./;
    expect(r.unrecomputable.filter((u) => !tokenRows.test(u.metric))).toEqual([]);
    expect(r.unrecomputable.length).toBeGreaterThan(0);
    for (const u of r.unrecomputable)
      expect(u.note).toMatch(/^missing_data: token_source: GenAI-Perf counts output tokens with its client tokenizer/);
    const p = report.load_points[0]!;
    expect([p.n, p.n_success, p.outcomes.inband_error]).toEqual([4, 3, 1]);
    // the split line became one content event; the role chunk is an event but not a token
    const split = run.requests[1]!;
    expect(split.events.filter((e) => e[2] === "content").length).toBe(4);
    expect(split.events[0]![2]).toBe("role");
    const rps = report.source_comparison!.find((x) => x.metric === "request_throughput.avg")!;
    expect(rps.codes).toContain("definition");
    expect(rps.canonical!).toBeLessThan(rps.reported!);
    // timestamps beyond 2^53 are read exactly: ns gaps are integers
    expect(run.requests.every((q) => q.events.every((e) => Number.isInteger(e[0])))).toBe(true);
  });
});
