import {outputKey} from "./condition.ts";
import {statsOf, type VllmLikeRun} from "./format.ts";

const positive = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v) && v > 0;

/**
 * Where a vLLM or SGLang result contradicts its own counts, one phrase per contradiction (empty when it does not):
 * - `completed: 0` beside a positive output-token total, request or output throughput, or a positive mean or
 *   median of a latency family: vLLM and SGLang divide by the completed requests and write 0 for statistics of
 *   none, so those numbers cannot come from the run the count describes;
 * - more requests completed and failed than the run planned (`num_prompts`).
 * No record can settle which number is wrong; the import warns, keeps the numbers as written and the source
 * comparison shows them.
 */
export function selfContradictions(run: VllmLikeRun, raw: Record<string, unknown>): string[] {
  const out: string[] = [];
  if (run.completed === 0) {
    const outKey = outputKey(raw);
    const shown = [outKey, "request_throughput", "output_throughput"]
      .filter((k) => positive(raw[k]))
      .map((k) => `${k} ${String(raw[k])}`);
    for (const stats of statsOf(raw).values())
      for (const label of ["mean", "median"]) {
        const s = stats.get(label);
        if (s && positive(s.value)) shown.push(`${s.key} ${s.value}`);
      }
    if (shown.length) out.push(`completed is 0, yet the file reports ${shown.join(", ")}`);
  }
  const failed = run.failed ?? 0;
  if (run.num_prompts != null && run.completed + failed > run.num_prompts)
    out.push(
      `completed (${run.completed}) + failed (${failed}) = ${run.completed + failed} requests, more than the ${run.num_prompts} the run planned (num_prompts)`
    );
  return out;
}
