import type {RunConfig} from "../../src/analysis/schema/config.ts";
import type {TransportError} from "../../src/analysis/schema/records.ts";
import type {Redactor} from "../redact.ts";
import type {StreamTimeouts} from "../http/stream.ts";
import type {Connections} from "../http/streamTypes.ts";
import {baseHeaders} from "./headers.ts";
import {collectorFault, type StreamFn, type StreamResult} from "./types.ts";

/**
 * One request (streamed, or one JSON answer for embeddings), built and sent in one place for every caller (load points, the case suite, the
 * probe): headers, timeouts, connection pool, raw-payload capture, and the one re-send rule. The timing
 * points live in the transport (collector/http/stream.ts) and come back in the result.
 */

/** An earlier attempt of a request that failed before any byte of it reached the operating system. */
export interface Attempt {
  tCallNs: number;
  tEndNs: number;
  socketReused: boolean;
  transportError: TransportError;
  errorMessage: string | null;
}

export interface RequestTarget {
  stream: StreamFn;
  /** Credentials, content negotiation and the configured extra headers. */
  headers: Readonly<Record<string, string>>;
  timeouts: StreamTimeouts;
  /** The run's monotonic origin and clock. */
  origin: bigint;
  clock: () => bigint;
  /** The run's connection pool. */
  agent: Connections;
  /** A one-off pool for a re-send on a fresh connection (closed after use). */
  freshAgent: () => Connections;
  redact: Redactor;
  payloadBytes: number;
}

export interface OneRequest {
  url: string;
  /** Request id, also sent as X-Request-ID. */
  id: string;
  body: string;
  keepText: boolean;
  signal?: AbortSignal;
  /** A non-streamed JSON request (embeddings) of this many inputs; absent: a stream. */
  json?: {inputs: number};
}

/** Stop switch of a run: each request in flight holds an AbortController while it runs. */
export interface Tracker {
  track(): AbortController;
  untrack(ac: AbortController): void;
}

export function streamTimeouts(t: RunConfig["target"]["timeouts"]): StreamTimeouts {
  return {
    connectMs: t.connect_ms,
    headersMs: t.headers_ms,
    idleMs: t.idle_ms,
    closeMs: t.close_ms,
    ...(t.total_ms === undefined ? {} : {totalMs: t.total_ms})
  };
}

export function requestTarget(
  config: RunConfig,
  o: Omit<RequestTarget, "headers" | "timeouts" | "payloadBytes"> & {apiKey: string | null}
): RequestTarget {
  const {apiKey, ...rest} = o;
  return {
    ...rest,
    headers: baseHeaders(apiKey, config.target.headers),
    timeouts: streamTimeouts(config.target.timeouts),
    payloadBytes: config.output.payload_bytes
  };
}

/**
 * A failed attempt may be sent again only when the server cannot have received it: it went out on a reused
 * keep-alive socket, the request never reached the operating system (no 'finish'), no response byte came
 * back, and the failure was the connection's (reset or hang-up), not a timeout or an abort.
 */
export function resendable(r: StreamResult): boolean {
  return (
    r.socketReused &&
    !r.requestWritten &&
    r.httpStatus === null &&
    r.tByte1Ns === null &&
    (r.transportError === "conn_reset" || r.transportError === "other")
  );
}

/**
 * Sends one streamed request and resolves with the transport's raw result; never rejects (a transport bug
 * becomes a recorded `collectorFault`). A request that `resendable` says never left is sent once more on a
 * fresh connection, and the failed attempt is kept in `attempts`; nothing is ever re-sent otherwise.
 */
export async function sendStreamed(
  t: RequestTarget,
  one: OneRequest,
  tracker?: Tracker
): Promise<StreamResult & {attempts: Attempt[]}> {
  const ac = tracker?.track();
  const signal = one.signal ?? ac?.signal;
  const attempt = (agent: Connections): Promise<StreamResult> =>
    t
      .stream({
        url: one.url,
        headers:
          one.json === undefined
            ? {...t.headers, "x-request-id": one.id}
            : {...t.headers, accept: "application/json", "x-request-id": one.id},
        body: one.body,
        timeouts: t.timeouts,
        origin: t.origin,
        clock: t.clock,
        agent,
        keepText: one.keepText,
        redact: t.redact,
        payloadBytes: t.payloadBytes,
        ...(one.json === undefined ? {} : {json: one.json}),
        ...(signal === undefined ? {} : {signal})
      })
      .catch((e: Error) => collectorFault(Number(t.clock() - t.origin), e.message));
  try {
    const first = await attempt(t.agent);
    if (!resendable(first) || signal?.aborted) return {...first, attempts: []};
    const fresh = t.freshAgent();
    try {
      const second = await attempt(fresh);
      const earlier: Attempt = {
        tCallNs: first.tCallNs ?? first.tEndNs ?? 0,
        tEndNs: first.tEndNs ?? first.tCallNs ?? 0,
        socketReused: first.socketReused,
        transportError: first.transportError!,
        errorMessage: first.errorMessage
      };
      return {...second, attempts: [earlier]};
    } finally {
      fresh.destroy();
    }
  } finally {
    if (ac !== undefined) tracker!.untrack(ac);
  }
}
