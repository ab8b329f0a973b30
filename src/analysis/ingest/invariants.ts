import type {RequestRecord} from "../schema/records.ts";

/**
 * Time-order invariants of one request on a monotonic clock:
 * scheduled ≤ dispatched ≤ headers ≤ first byte ≤ events (non-decreasing) ≤ end.
 * A violation means the clock was not monotonic or the record was edited; returns `[path, message]` pairs.
 */
export function timeOrderViolations(r: RequestRecord): [string, string][] {
  const out: [string, string][] = [];
  const chain: [string, number | null][] = [
    ["tSchedNs", r.tSchedNs],
    ["tDispNs", r.tDispNs],
    ["tHdrNs", r.tHdrNs],
    ["tByte1Ns", r.tByte1Ns]
  ];
  let prev: [string, number] | null = null;
  for (const [name, t] of chain) {
    if (t === null) continue;
    if (prev && t < prev[1]) out.push([name, `${name} ${t} is before ${prev[0]} ${prev[1]}`]);
    prev = [name, t];
  }
  for (let i = 0; i < r.events.length; i++) {
    const t = r.events[i]![0];
    if (prev && t < prev[1]) {
      out.push([`events.${i}.0`, `event time ${t} is before ${prev[0]} ${prev[1]} (clock regression)`]);
      break;
    }
    prev = [`events.${i}`, t];
  }
  if (r.tEndNs !== null && prev && r.tEndNs < prev[1])
    out.push(["tEndNs", `tEndNs ${r.tEndNs} is before ${prev[0]} ${prev[1]}`]);
  return out;
}
