import type {Samples} from "../stats/column.ts";

/**
 * Sweep over request intervals [start, end): time-weighted mean and peak of requests in flight
 * within [from, to]. At equal times ends are processed before starts, so a slot freed and reused
 * at the same instant does not count twice. Inputs are parallel arrays of ns.
 */
export function inFlightProfile(
  starts: Samples,
  ends: Samples,
  from: number,
  to: number
): {mean: number | null; peak: number} {
  const n = starts.length;
  if (n === 0 || !(to > from)) return {mean: null, peak: 0};
  const s = starts.slice().sort();
  const e = ends.slice().sort();
  let i = 0;
  let j = 0;
  let level = 0;
  let peak = 0;
  let area = 0;
  let t = from;
  while (i < n || j < n) {
    const takeEnd = j < n && (i >= n || e[j]! <= s[i]!);
    const at = takeEnd ? e[j]! : s[i]!;
    const clamped = Math.min(Math.max(at, from), to);
    if (clamped > t) {
      area += level * (clamped - t);
      t = clamped;
    }
    if (takeEnd) {
      level--;
      j++;
    } else {
      level++;
      i++;
      if (level > peak) peak = level;
    }
  }
  // every start has its end, so the level is back to 0 here: nothing is left to add after the last event
  return {mean: area / (to - from), peak};
}
