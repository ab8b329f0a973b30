import {readFileSync} from "node:fs";
import {join} from "node:path";

import {describe, expect, it} from "vitest";

import {importAndAnalyzeTexts, SYNTH} from "../helpers.ts";

/** vLLM's goodput under both spellings: the historic "request_goodput:" (with the colon) and the later key. */
describe("vLLM request_goodput", () => {
  const base = JSON.parse(readFileSync(join(SYNTH, "vllm/vllm-2025-detailed.json"), "utf8")) as Record<string, unknown>;
  for (const key of ["request_goodput:", "request_goodput"])
    it(`"${key}" is read and kept as reported; its SLO thresholds are not in the file`, async () => {
      const {report} = await importAndAnalyzeTexts("vllm", [
        {name: "r.json", text: JSON.stringify({...base, [key]: 1.25})}
      ]);
      const row = report.source_comparison!.find((r) => r.metric === "request_goodput")!;
      expect(row.reported).toBe(1.25);
      expect(row.recomputed).toBeNull();
      expect(row.note).toMatch(/--goodput SLO thresholds are not saved/);
      expect(row.definition.includes("historic key")).toBe(key.endsWith(":"));
    });
  it("a null goodput (run without --goodput) stays unknown, never 0", async () => {
    const {report} = await importAndAnalyzeTexts("vllm", [
      {name: "r.json", text: JSON.stringify({...base, "request_goodput:": null})}
    ]);
    const row = report.source_comparison!.find((r) => r.metric === "request_goodput")!;
    expect(row.reported).toBeNull();
    // the file holds the key, as null: reported as no number, unknown (never 0)
    expect(row.note).toMatch(/^reported as null in the file \(null, NaN or Infinity\): unknown/);
  });
});
