import type {Agent} from "node:http";

import type {z} from "zod";

import type {
  ServerTimings as ServerTimingsSchema,
  SseEvent,
  TransportError,
  Usage,
  UsageSource
} from "../../src/analysis/schema/records.ts";

type ServerTimings = z.infer<typeof ServerTimingsSchema>;

/**
 * The transport contract of collector/http/stream.ts (built by collector-A), restated structurally so the
 * run code depends on the shape, not the module: tests can pass any function of this type.
 */
export interface StreamRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeouts: {connectMs: number; headersMs: number; idleMs: number; totalMs?: number};
  origin: bigint;
  clock?: () => bigint;
  signal?: AbortSignal;
  agent?: Agent;
  maxEventBytes?: number;
  keepText?: boolean;
  redact?: (s: string) => string;
}

export interface StreamResult {
  tDispNs: number | null;
  tHdrNs: number | null;
  tByte1Ns: number | null;
  tEndNs: number | null;
  events: SseEvent[];
  httpStatus: number | null;
  finishReason: string | null;
  usage: Usage | null;
  usageSource: UsageSource;
  serverTimings: ServerTimings | null;
  transportError: TransportError | null;
  errorMessage: string | null;
  responseText: string;
  reasoningText: string;
  responseDigest: string | null;
  /** Tool calls assembled from `delta.tool_calls` (with keepText; absent from transports that do not assemble them). */
  toolCalls?: {index: number; id: string | null; name: string; arguments: string}[];
}

export type StreamFn = (req: StreamRequest) => Promise<StreamResult>;

/** The pacer of collector/http/pacer.ts: waits until an absolute monotonic deadline. */
export interface Pacer {
  waitUntil(deadlineNs: bigint): Promise<{lateNs: number}>;
}
