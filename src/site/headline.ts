import {isSummary, type PointReport, type Report} from "../analysis/index.ts";

const runValue = (p: PointReport, id: string): number | null => {
  const v = p.metrics[id];
  return v && !isSummary(v) ? v.value : null;
};

/** Headline numbers of a bundle for index tables: the load point with the most output throughput. */
export function headline(report: Report): {
  point: PointReport | null;
  ttft: number | null;
  itl: number | null;
  out: number | null;
} {
  const best =
    [...report.load_points].sort(
      (a, b) => (runValue(b, "output_throughput_tok_s") ?? -1) - (runValue(a, "output_throughput_tok_s") ?? -1)
    )[0] ?? null;
  const p50 = (id: string) => {
    const v = best?.metrics[id];
    return v && isSummary(v) ? v.p50 : null;
  };
  return {
    point: best,
    ttft: p50("ttft_ms"),
    itl: p50("itl_ms"),
    out: best ? runValue(best, "output_throughput_tok_s") : null
  };
}
