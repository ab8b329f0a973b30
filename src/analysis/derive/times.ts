import type {RequestRecord} from "../schema/records.ts";

/**
 * The transport's times of a request as the derived facts name them, the same for a stream and a
 * non-streamed answer: the schedule view starts at the scheduled time, else at dispatch; the client's start
 * is the first attempt's when the request was re-sent.
 */
export function transportTimes(r: RequestRecord) {
  return {
    tStart: r.tSchedNs ?? r.tDispNs,
    tSched: r.tSchedNs,
    tCall: r.attempts?.[0]?.tCallNs ?? r.tCallNs ?? null,
    tConn: r.tConnNs ?? null,
    tTls: r.tTlsNs ?? null,
    tDisp: r.tDispNs,
    tHdr: r.tHdrNs,
    tByte1: r.tByte1Ns
  };
}
