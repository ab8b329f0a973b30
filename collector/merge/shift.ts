/**
 * Placing a shard's records on the merged timeline: every run-relative time moves by the shard's offset,
 * nothing else changes (durations, and so every per-request latency, stay exactly as measured). The field
 * lists are checked against the schemas (test/collector/merge/shift.test.ts): a new time field must be
 * named here, or the test fails.
 */
import type {ClientRecord, GpuSample, RequestRecord, ServerScrape} from "../../src/analysis/schema/index.ts";

/** The run-relative times of a request record (events' and attempts' times are shifted apart). */
export const REQUEST_TIMES = [
  "tSchedNs",
  "tCallNs",
  "tConnNs",
  "tTlsNs",
  "tDispNs",
  "tHdrNs",
  "tByte1Ns",
  "tEndNs"
] as const;

type Req = Omit<RequestRecord, "seq">;

export function shiftRequest(r: Req, dt: number, shard: number): Req {
  const out: Req = {...r, shard};
  // imports time each request from its own start: those times are not on the run's clock
  if (r.timeBase === "request") return out;
  for (const f of REQUEST_TIMES) {
    const v = r[f];
    if (typeof v === "number") out[f] = v + dt;
  }
  out.events = r.events.map((e) => [e[0] + dt, ...e.slice(1)] as Req["events"][number]);
  if (r.attempts !== undefined)
    out.attempts = r.attempts.map((a) => ({...a, tCallNs: a.tCallNs + dt, tEndNs: a.tEndNs + dt}));
  return out;
}

type Client = ClientRecord extends infer T ? (T extends unknown ? Omit<T, "seq"> : never) : never;

export function shiftClient(r: Client, dt: number, shard: number): Client {
  if (r.kind === "note") return {...r, shard, tNs: r.tNs + dt};
  return {
    ...r,
    shard,
    tNs: r.tNs + dt,
    ...(r.stalls === undefined ? {} : {stalls: r.stalls.map(([t, ms]) => [t + dt, ms] as [number, number])})
  };
}

export function shiftScrape<T extends Omit<ServerScrape, "seq"> | Omit<GpuSample, "seq">>(r: T, dt: number): T {
  return {...r, tNs: r.tNs + dt};
}
