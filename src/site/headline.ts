import {isSummary, type PointReport, type Report} from "../analysis/index.ts";

const runValue = (p: PointReport, id: string): number | null => {
  const v = p.metrics[id];
  return v && !isSummary(v) ? v.value : null;
};

/** Why a metric of a point has no headline value (a "—" always carries its reason), or null when it has one. */
function whyNone(p: PointReport | null, id: string, value: number | null): string | null {
  if (value !== null) return null;
  const v = p?.metrics[id];
  if (p === null) return "no load point";
  if (v === undefined) return `${id} not computed for ${p.id}`;
  if (isSummary(v)) return v.withheld.p50 ?? v.note ?? (v.n === 0 ? `no values (n = 0)` : `${id}: no median`);
  return v.reason ?? `${id} unknown`;
}

/** Headline numbers of a bundle for index tables: the load point with the most output throughput. */
export function headline(report: Report): {
  point: PointReport | null;
  ttft: number | null;
  itl: number | null;
  out: number | null;
  /** Why each unknown headline value is unknown (null where there is a value). */
  why: {ttft: string | null; itl: string | null; out: string | null};
} {
  const best =
    [...report.load_points].sort(
      (a, b) => (runValue(b, "output_throughput_tok_s") ?? -1) - (runValue(a, "output_throughput_tok_s") ?? -1)
    )[0] ?? null;
  const p50 = (id: string) => {
    const v = best?.metrics[id];
    return v && isSummary(v) ? v.p50 : null;
  };
  const [ttft, itl] = [p50("ttft_ms"), p50("itl_ms")];
  const out = best ? runValue(best, "output_throughput_tok_s") : null;
  return {
    point: best,
    ttft,
    itl,
    out,
    why: {
      ttft: whyNone(best, "ttft_ms", ttft),
      itl: whyNone(best, "itl_ms", itl),
      out: whyNone(best, "output_throughput_tok_s", out)
    }
  };
}
