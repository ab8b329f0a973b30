import {
  max,
  mean,
  min,
  PERCENTILE_KEYS,
  selectKth,
  std,
  withheldReason,
  type PercentileKey,
  type QuantileMethod,
  type Summary
} from "../../../src/analysis/stats/index.ts";

/**
 * The R-7 quantile and summarize as they stood before R-7 moved onto d3-array's quantile (commit 6904e3f),
 * kept verbatim as the oracle of test/analysis/stats/d3Parity.test.ts: the new code must return what they did.
 */
type Samples = Float64Array | Float32Array;

const PROBABILITY: Readonly<Record<PercentileKey, number>> = {p50: 0.5, p90: 0.9, p95: 0.95, p99: 0.99};

export function legacyQuantileR7(xs: Samples, p: number): number | undefined {
  const n = xs.length;
  if (n === 0 || !(p >= 0 && p <= 1)) return undefined;
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  const vLo = selectKth(xs, lo);
  if (lo + 1 >= n || h === lo) return vLo;
  const vHi = selectKth(xs, lo + 1, lo + 1);
  return vLo + (h - lo) * (vHi - vLo);
}
export function legacySummarize(input: Samples, method: QuantileMethod = "nearest-rank"): Summary {
  const values = input.every(Number.isFinite) ? input : input.filter(Number.isFinite);
  const n = values.length;
  const withheld: Partial<Record<PercentileKey, string>> = {};
  const out: Summary = {
    n,
    mean: mean(values) ?? null,
    std: std(values, 0) ?? null,
    min: min(values) ?? null,
    max: max(values) ?? null,
    p50: null,
    p90: null,
    p95: null,
    p99: null,
    method,
    withheld
  };
  // Nearest ranks ascend with p, so each selection only searches right of the previous one.
  let lo = 0;
  for (const key of n === 0 ? [] : PERCENTILE_KEYS) {
    const reason = withheldReason(key, n);
    if (reason) {
      withheld[key] = reason;
      continue;
    }
    if (key === "p50") {
      const hiIdx = n >> 1;
      const hi = selectKth(values, hiIdx);
      out.p50 = n % 2 === 1 ? hi : (selectKth(values, hiIdx - 1, 0, hiIdx - 1) + hi) / 2;
      lo = hiIdx;
    } else if (method === "r7") out[key] = legacyQuantileR7(values, PROBABILITY[key]) ?? null;
    else {
      const k = Math.max(1, Math.ceil(PROBABILITY[key] * n - 1e-9)) - 1;
      out[key] = selectKth(values, k, Math.min(lo, k), n - 1);
      lo = k;
    }
  }
  return out;
}
