import {mkdtempSync, rmSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";

import {describe, expect, it} from "vitest";

import {importAndAnalyze} from "./helpers.ts";
import {json} from "./synthetic.ts";

describe("a reported number that its own definition does not reproduce is a finding", () => {
  it("an altered mean and a value outside its bound are flagged and raised as source_mismatch warnings", async () => {
    const o = json("vllm/vllm-2024-detailed.json");
    o.mean_ttft_ms = (o.mean_ttft_ms as number) * 1.01;
    o.median_tpot_ms = 1000;
    const dir = mkdtempSync(join(tmpdir(), "inferscope-finding-"));
    try {
      const file = join(dir, "tampered.json");
      writeFileSync(file, JSON.stringify(o));
      const {report} = await importAndAnalyze("vllm", [file]);
      const rows = report.source_comparison!;
      const flagged = rows.filter((r) => r.finding).map((r) => r.metric);
      expect(flagged.sort()).toEqual(["mean_ttft_ms", "median_tpot_ms"]);
      expect(rows.find((r) => r.metric === "mean_ttft_ms")!.note).toMatch(
        /^FINDING: recomputed differs from reported by 0\.990 %/
      );
      expect(rows.find((r) => r.metric === "median_tpot_ms")!.note).toMatch(
        /FINDING: reported value lies outside the bound/
      );
      const warnings = report.issues.filter((i) => i.code === "source_mismatch");
      expect(warnings.map((w) => w.path).sort()).toEqual(["mean_ttft_ms", "median_tpot_ms"]);
      expect(warnings.every((w) => w.severity === "warning" && w.file === "source.jsonl")).toBe(true);
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  });
});
