/**
 * The door to the peer importers: everything outside `peers/` imports from here (src/analysis/index.ts
 * re-exports it). Layout: `<tool>/{format,import,parity}.ts`, `shared/` for what every tool uses, one
 * `PEER_FORMATS` registry (registry.ts) read by the importer and by the source comparison.
 */
export {detectTool, importPeer, PEER_FORMATS} from "./registry.ts";
export {sourceComparison, canonicalView, importCaveats, type PointInput} from "./sourceComparison.ts";
export {declarationConflicts, importedConfig, importedConfigYaml, importedManifest} from "./bundle.ts";
export type {SourceComparisonRow, ReasonCode, RecomputeStatus} from "./shared/compare.ts";
export {REASON_CODES, TOLERANCE} from "./shared/compare.ts";
export {PEER_TOOLS, TOOL_LABELS, isPeerTool, formatPeerError, toolLabel} from "./shared/types.ts";
export type {PeerTool, PeerFile, PeerError, ImportedRun, Result} from "./shared/types.ts";
export {recomputeVllm} from "./vllm/parity.ts";
export {recomputeSglang} from "./sglang/parity.ts";
export {recomputeGenaiPerf} from "./genaiPerf/parity.ts";
export {recomputeAiperf} from "./aiperf/parity.ts";
export {recomputeGuidellm} from "./guidellm/parity.ts";
export {recomputeLlmperf} from "./llmperf/parity.ts";
export {recomputeInferscopeV1} from "./inferscopeV1/parity.ts";
export {VLLM_CHAT_TTFT_CAVEAT} from "./vllm/format.ts";
export {validateLlmdReport} from "./llmd/validate.ts";
export {StreamingDoc} from "./shared/streamParse.ts";
