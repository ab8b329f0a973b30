import type {StreamRequest, StreamResult} from "./streamTypes.ts";
import {Call} from "./call.ts";
import {SocketCall} from "./socketCall.ts";
import {SocketPool} from "./socketPool.ts";

export {DEFAULT_CLOSE_MS, DEFAULT_MAX_EVENT_BYTES} from "./streamTypes.ts";
export type {StreamRequest, StreamResult, StreamTimeouts} from "./streamTypes.ts";
export {headBytes} from "./payload.ts";

/**
 * One streamed request over node:http, recording raw timestamps and events; never retries.
 *
 * Times: tCallNs when the call began; tConnNs at TCP connect and tTlsNs at the end of the TLS handshake
 * (fresh connections only); tDispNs right after the request (headers and body in one write) was handed to
 * a connected (and, for https, secured) socket; tHdrNs at the 'response' event; tByte1Ns at the first body chunk; each event gets the
 * arrival time of the socket chunk that completed it (one clock reading per chunk, taken when the socket
 * hands the bytes to JavaScript, before node's HTTP parser runs, and shared by every event completed in that
 * chunk; tHdrNs and tByte1Ns are readings of the same kind); tEndNs at the end of the body, an error, a timeout or an abort.
 *
 * Never rejects for server or network faults (they become transportError/httpStatus/errorMessage);
 * rejects only for programmer errors (bad URL, bad timeouts, non-bigint origin).
 */
export function streamRequest(req: StreamRequest): Promise<StreamResult> {
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    return Promise.reject(new Error(`streamRequest: invalid url ${JSON.stringify(req.url)}`));
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return Promise.reject(
      new Error(`streamRequest: unsupported protocol ${JSON.stringify(url.protocol)} in ${req.url}`)
    );
  }
  const t = req.timeouts;
  for (const k of ["connectMs", "headersMs", "idleMs"] as const) {
    if (!(typeof t[k] === "number" && t[k] > 0)) {
      return Promise.reject(new Error(`streamRequest: timeouts.${k} must be a positive number, got ${String(t[k])}`));
    }
  }
  if (t.totalMs !== undefined && !(t.totalMs > 0)) {
    return Promise.reject(new Error(`streamRequest: timeouts.totalMs must be positive, got ${t.totalMs}`));
  }
  if (typeof req.origin !== "bigint") {
    return Promise.reject(new Error(`streamRequest: origin must be a bigint, got ${typeof req.origin}`));
  }
  const a = req.agent;
  return new Promise<StreamResult>((resolve, reject) =>
    (a instanceof SocketPool
      ? new SocketCall(a, req, url, resolve, reject)
      : new Call(req, url, resolve, reject)
    ).start()
  );
}
