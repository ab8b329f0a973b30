import type {TransportError} from "../../src/analysis/schema/records.ts";

/**
 * Maps a node:net/http error to a transport error class. `afterDispatch`: the request had been written
 * (an unreachable-host error then means the connection broke, not that it never opened).
 */
export function classifyError(e: Error, afterDispatch: boolean): TransportError {
  const code = (e as Error & {code?: unknown}).code;
  switch (code) {
    case "ECONNREFUSED":
      return "conn_refused";
    case "ENOTFOUND":
    case "EAI_AGAIN":
    case "EAI_NONAME":
    case "EAI_FAIL":
    case "EAI_NODATA":
      return "dns";
    case "ECONNRESET":
    case "EPIPE":
    case "ECONNABORTED":
      return "conn_reset";
    case "EHOSTUNREACH":
    case "ENETUNREACH":
    case "ENETDOWN":
    case "ETIMEDOUT":
    case "EADDRNOTAVAIL":
      return afterDispatch ? "conn_reset" : "conn_refused";
  }
  if (/socket hang up/i.test(e.message)) return "conn_reset";
  return "other";
}
