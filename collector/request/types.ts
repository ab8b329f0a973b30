/**
 * The transport contract the run code depends on: the types of collector/http (so tests can pass any
 * function of this shape instead of the real transport).
 */
import type {StreamRequest, StreamResult} from "../http/stream.ts";

export type {StreamRequest, StreamResult};

export type StreamFn = (req: StreamRequest) => Promise<StreamResult>;

/** The result recorded for a request the transport could not even attempt (a collector bug): kept, never dropped. */
export function collectorFault(tEndNs: number, message: string): StreamResult {
  return {
    tCallNs: null,
    tConnNs: null,
    tTlsNs: null,
    tDispNs: null,
    tHdrNs: null,
    tByte1Ns: null,
    tEndNs,
    events: [],
    httpStatus: null,
    finishReason: null,
    usage: null,
    usageSource: "none",
    serverTimings: null,
    transportError: "other",
    errorMessage: `collector error: ${message}`,
    responseText: "",
    reasoningText: "",
    responseDigest: null,
    toolCalls: [],
    socketReused: false,
    requestWritten: false,
    body: null
  };
}
