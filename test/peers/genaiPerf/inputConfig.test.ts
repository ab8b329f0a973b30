import {describe, expect, it} from "vitest";

import {importAndAnalyzeTexts} from "../helpers.ts";
import {json} from "../synthetic.ts";

/**
 * The load a GenAI-Perf summary states in `input_config`, in both layouts (genaiPerf/inputConfig.ts): flat
 * `concurrency` / `request_rate` (argparse, until early 2025), nested `perf_analyzer.stimulus` (config files,
 * 2025). nested/profile_export_genai_perf.json is the synthetic summary with the nested layout at concurrency 4.
 */
const NESTED = "genai-perf/nested/profile_export_genai_perf.json";

async function imported(summary: Record<string, unknown>) {
  const {run, report} = await importAndAnalyzeTexts("auto", [
    {name: "profile_export_genai_perf.json", text: JSON.stringify(summary)}
  ]);
  return {run, report};
}

const withConfig = (patch: (c: Record<string, unknown>) => void) => {
  const s = json(NESTED);
  patch(s.input_config as Record<string, unknown>);
  return s;
};
const stimulus = (value: unknown) => withConfig((c) => ((c.perf_analyzer as Record<string, unknown>).stimulus = value));

describe("GenAI-Perf summary: the load and model of input_config, flat or nested", () => {
  it("nested: perf_analyzer.stimulus.concurrency is the load point, model_names the model", async () => {
    const {run, report} = await imported(json(NESTED));
    expect(run.loadPoints.map((p) => p.id)).toEqual(["concurrency-4"]);
    expect(run.model).toBe("synthetic/gp-nested");
    expect(report.load_points.map((p) => p.id)).toEqual(["concurrency-4"]);
  });

  it("nested: a request rate is a constant-rate point (perf_analyzer's --request-rate-range)", async () => {
    const {run} = await imported(stimulus({request_rate: 2.5}));
    expect(run.loadPoints.map((p) => [p.id, p.mode, p.value])).toEqual([["rate-2.5", "rate", 2.5]]);
  });

  it("nested: a session concurrency or an analyze sweep states no load point, and the note says why", async () => {
    const session = await imported(stimulus({session_concurrency: 3}));
    expect(session.run.loadPoints.map((p) => p.id)).toEqual(["concurrency-unknown"]);
    expect(session.run.notes).toContain(
      "the summary states no load (input_config.perf_analyzer.stimulus is session_concurrency 3: not a request concurrency or rate): the load point is unknown"
    );
    const sweep = await imported(withConfig((c) => (c.subcommand = "analyze")));
    expect(sweep.run.loadPoints.map((p) => p.id)).toEqual(["concurrency-unknown"]);
    expect(sweep.run.notes.join("; ")).toMatch(/genai-perf analyze: input_config keeps the sweep template's stimulus/);
  });

  it("flat: concurrency as before, and a request rate when concurrency is null", async () => {
    const flat = json("genai-perf/profile_export_genai_perf.json");
    expect((await imported(flat)).run.loadPoints.map((p) => p.id)).toEqual(["concurrency-2"]);
    flat.input_config = {model: ["synthetic/gp"], concurrency: null, request_rate: 8};
    const {run} = await imported(flat);
    expect(run.loadPoints.map((p) => p.id)).toEqual(["rate-8"]);
    expect(run.model).toBe("synthetic/gp");
  });
});
