import {requestAccounting} from "./accounting.ts";
import {clientHealth} from "./client.ts";
import {integrity, runCompletion} from "./integrity.ts";
import {achievedLoad, arrivalFidelity, scheduleView, warmupExcluded} from "./load.ts";
import {errorRate, sampleSize, successClassification} from "./requests.ts";
import {fakeStreaming, reasoningCutoff, streamClose, telemetryCompleteness, ttftRule} from "./streaming.ts";
import {prefixCache} from "./prefixCache.ts";
import {shardMerge} from "./shards.ts";
import {inputLength, multiTokenChunks, outputLength, shortOutputs, tokenAccounting} from "./tokens.ts";
import type {GateDef} from "./types.ts";

/** Every validity gate, defined once, in the order reports show them. */
export const GATES: readonly GateDef[] = [
  integrity,
  runCompletion,
  requestAccounting,
  shardMerge,
  successClassification,
  errorRate,
  sampleSize,
  achievedLoad,
  clientHealth,
  scheduleView,
  tokenAccounting,
  ttftRule,
  reasoningCutoff,
  multiTokenChunks,
  outputLength,
  inputLength,
  prefixCache,
  warmupExcluded,
  fakeStreaming,
  shortOutputs,
  arrivalFidelity,
  telemetryCompleteness,
  streamClose
];

const BY_ID = new Map<string, GateDef>(GATES.map((g) => [g.id, g]));
export function gateById(id: string): GateDef {
  const g = BY_ID.get(id);
  if (!g) throw new Error(`unknown gate id: ${id}`);
  return g;
}
