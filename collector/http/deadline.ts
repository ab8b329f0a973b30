import type {TransportError} from "../../src/analysis/schema/records.ts";
import {DEFAULT_CLOSE_MS, type StreamTimeouts} from "./streamTypes.ts";

/** Where one streamed request is: before its socket is connected, waiting for headers, reading the body, done. */
export type Phase = "connect" | "headers" | "body" | "done";

/** The next deadline of a request: when it falls due, the transport error it becomes and the message. */
export interface Deadline {
  at: number;
  cls: TransportError;
  what: string;
}

/** The request's times so far (ns since the run's origin) that its deadlines count from. */
export interface DeadlineState {
  phase: Phase;
  tStart: number;
  tDisp: number | null;
  tLastData: number;
  /** Time of the terminal marker ([DONE] or a finish_reason), or null. */
  tTerminal: number | null;
  sawDone: boolean;
}

/**
 * The earliest deadline of a request in its current phase: connect, headers, body idle (or, after the
 * terminal marker, close), capped by the total deadline.
 */
export function deadline(t: StreamTimeouts, s: DeadlineState): Deadline {
  let at: number;
  let cls: TransportError;
  let what: string;
  if (s.phase === "connect") {
    at = s.tStart + t.connectMs * 1e6;
    cls = "conn_refused";
    what = `connect timeout after ${t.connectMs} ms`;
  } else if (s.phase === "headers") {
    at = s.tDisp! + t.headersMs * 1e6;
    cls = "timeout_headers";
    what = `no response headers within ${t.headersMs} ms`;
  } else {
    at = s.tLastData + t.idleMs * 1e6;
    cls = "timeout_body";
    what = `stream idle for more than ${t.idleMs} ms`;
    if (s.tTerminal !== null) {
      const closeMs = t.closeMs ?? DEFAULT_CLOSE_MS;
      const close = s.tTerminal + closeMs * 1e6;
      if (close <= at) {
        at = close;
        cls = "close_timeout";
        what = `the stream stayed open more than ${closeMs} ms after its ${s.sawDone ? "[DONE]" : "finish_reason"}`;
      }
    }
  }
  if (t.totalMs !== undefined) {
    const total = s.tStart + t.totalMs * 1e6;
    if (total <= at)
      return {at: total, cls: "timeout_total", what: `request exceeded its total deadline of ${t.totalMs} ms`};
  }
  return {at, cls, what};
}
