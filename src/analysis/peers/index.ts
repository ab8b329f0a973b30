import {aiperf} from "./aiperf.ts";
import {genaiPerf} from "./genaiPerf.ts";
import {guidellm} from "./guidellm.ts";
import {inferscopeV1} from "./inferscopeV1.ts";
import {llmperf} from "./llmperf.ts";
import {parseDocs} from "./parse.ts";
import {sglang} from "./sglang.ts";
import {
  PEER_TOOLS,
  type Doc,
  type ImportedRun,
  type PeerFile,
  type PeerFormat,
  type PeerTool,
  type Result
} from "./types.ts";
import {vllm} from "./vllm.ts";

export const PEER_FORMATS: Readonly<Record<PeerTool, PeerFormat>> = {
  vllm,
  sglang,
  "genai-perf": genaiPerf,
  aiperf,
  guidellm,
  llmperf,
  "inferscope-v1": inferscopeV1
};

/**
 * Picks the tool by shape: the one format that recognises every file. When none does, the error lists
 * each file with the shapes that were expected; when several do, the user is asked to name the tool.
 */
export function detectTool(docs: readonly Doc[]): Result<PeerTool> {
  const claims = PEER_TOOLS.map((t) => PEER_FORMATS[t].detect(docs)).filter((c) => c !== null);
  const full = claims.filter((c) => docs.every((d) => c.files.includes(d.name)));
  if (full.length === 1) return {ok: true, value: full[0]!.tool};
  if (full.length > 1)
    return {
      ok: false,
      errors: [
        {
          file: docs.map((d) => d.name).join(", "),
          path: "$",
          expected: `one tool, but the files fit several (${full.map((c) => c.tool).join(", ")}): name it instead of auto`
        }
      ]
    };
  const expected = PEER_TOOLS.map((t) => `  ${t}: ${PEER_FORMATS[t].expected}`).join("\n");
  const unclaimed = docs.filter((d) => !claims.some((c) => c.files.includes(d.name)));
  if (unclaimed.length)
    return {
      ok: false,
      errors: unclaimed.map((d) => ({
        file: d.name,
        path: "$",
        expected: `a result file of a known tool (detected by shape, not by name); the shapes expected are:\n${expected}`
      }))
    };
  return {
    ok: false,
    errors: [
      {
        file: docs.map((d) => d.name).join(", "),
        path: "$",
        expected: `files of one tool, but they fit different tools (${claims.map((c) => `${c.tool}: ${c.files.join(", ")}`).join("; ")}): import them separately`
      }
    ]
  };
}

/**
 * Imports a peer tool's result files into InferScope records. Pure: the edge reads the files.
 * `tool` "auto" detects the format by shape.
 */
export function importPeer(tool: PeerTool | "auto", files: readonly PeerFile[]): Result<ImportedRun> {
  if (files.length === 0)
    return {ok: false, errors: [{file: "(none)", path: "$", expected: "at least one input file"}]};
  const parsed = parseDocs(files);
  if (!parsed.ok) return parsed;
  const docs = parsed.value;
  let chosen: PeerTool;
  if (tool === "auto") {
    const d = detectTool(docs);
    if (!d.ok) return d;
    chosen = d.value;
  } else chosen = tool;
  return PEER_FORMATS[chosen].import(docs);
}

export {sourceComparison, canonicalView, type PointInput} from "./sourceComparison.ts";
export {importedConfig, importedConfigYaml, importedManifest} from "./bundle.ts";
export type {SourceComparisonRow, ReasonCode, RecomputeStatus} from "./compare.ts";
export {REASON_CODES, TOLERANCE} from "./compare.ts";
export {PEER_TOOLS, TOOL_LABELS, isPeerTool, formatPeerError, toolLabel} from "./types.ts";
export type {PeerTool, PeerFile, PeerError, ImportedRun, Result} from "./types.ts";
export {recomputeVllm} from "./vllm.ts";
export {recomputeSglang} from "./sglang.ts";
export {recomputeGenaiPerf} from "./genaiPerf.ts";
export {recomputeAiperf} from "./aiperf.ts";
export {recomputeGuidellm} from "./guidellm.ts";
export {recomputeLlmperf} from "./llmperf.ts";
export {recomputeInferscopeV1} from "./inferscopeV1.ts";
export {VLLM_CHAT_TTFT_CAVEAT} from "./vllmLike.ts";
