import type {Agent} from "node:http";

import type {JsonBody} from "../../src/analysis/schema/body.ts";
import type {SseEvent, TransportError, Usage, UsageSource} from "../../src/analysis/schema/records.ts";
import type {ServerTimingsValue, StreamedToolCall} from "./events.ts";
import type {SocketPool} from "./socketPool.ts";

/** A run's connections: node:http's agent or the socket transport's pool; the pool picks the transport. */
export type Connections = Agent | SocketPool;

/** What one streamed request is given and what it gives back (collector/http/stream.ts sends it). */

export interface StreamTimeouts {
  /** Until the TCP connection is established (skipped for a reused keep-alive socket). */
  connectMs: number;
  /** From dispatch until the response headers. */
  headersMs: number;
  /** Longest silence between body chunks (from the headers on). */
  idleMs: number;
  /** Whole request, from the call. */
  totalMs?: number;
  /**
   * Longest wait between the stream's terminal marker ([DONE] or a finish_reason) and its end; then the
   * client closes it and records `close_timeout` (default 10 s).
   */
  closeMs?: number;
}

export interface StreamRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeouts: StreamTimeouts;
  /** The run's monotonic origin; every time in the result is Number(clock() - origin). */
  origin: bigint;
  clock?: () => bigint;
  signal?: AbortSignal;
  /** The connections: a node:http agent (createAgent) or a bare-socket pool (SocketPool); default: the shared agent. */
  agent?: Connections;
  /** Largest SSE event (bytes of its data) accepted; default 16 MiB → transportError "event_too_large". */
  maxEventBytes?: number;
  /** Keep responseText/reasoningText (the digest is computed either way). */
  keepText?: boolean;
  /** Keep the first this-many bytes of every event's data in the event tuple (default 0: none). */
  payloadBytes?: number;
  /** Applied to every error message and body excerpt. */
  redact?: (s: string) => string;
  /**
   * A non-streamed request (embeddings) that sent `inputs` texts: a 2xx body is read whole as one JSON answer
   * (`body` of the result) instead of as an event stream.
   */
  json?: {inputs: number};
}

export interface StreamResult {
  /** When this call began (before DNS, connect and TLS). */
  tCallNs: number | null;
  /** When the socket was connected (null for a reused socket or when it never connected). */
  tConnNs: number | null;
  /** When the TLS handshake finished (null for http, a reused socket, or when it never finished). */
  tTlsNs: number | null;
  tDispNs: number | null;
  tHdrNs: number | null;
  tByte1Ns: number | null;
  tEndNs: number | null;
  events: SseEvent[];
  httpStatus: number | null;
  finishReason: string | null;
  usage: Usage | null;
  usageSource: UsageSource;
  serverTimings: ServerTimingsValue | null;
  transportError: TransportError | null;
  errorMessage: string | null;
  responseText: string;
  reasoningText: string;
  responseDigest: string | null;
  /** Tool calls assembled from the stream (only with keepText; empty otherwise). */
  toolCalls: StreamedToolCall[];
  /** The request went out on a reused keep-alive socket. */
  socketReused: boolean;
  /** The whole request (headers and body) was handed to the operating system ('finish'). */
  requestWritten: boolean;
  /** What the client read of a non-streamed JSON answer (requests with `json`), else null. */
  body: JsonBody | null;
}

export const DEFAULT_MAX_EVENT_BYTES = 16 * 1024 * 1024;
export const DEFAULT_CLOSE_MS = 10_000;
